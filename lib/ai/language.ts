// The language a researcher writes in, and whether a model's text is in it.
// Models given English instructions and English sources often answer a German question in English, and
// Qwen models drift into Chinese mid-reply: the user asked in one language and is answered in another.
// Every agent whose text a user reads is told the language by name (models follow "Write in German" far
// better than "in the user's language"), and a long text that came back in another is asked for again.
//
// Detection is deliberately small and conservative: the writing system first (Han, Hangul, Cyrillic, …),
// then, for Latin and the other shared scripts, the share of each language's most common function words.
// It answers only when one language clearly leads; a text too short to tell names its script alone.

export interface Language {
  /** The writing system most of its letters are in: "Latin", "Han", "Cyrillic", … */
  script: string;
  /** ISO 639-1 code, when the language is clear ("de"); null when only the script is. */
  code: string | null;
  /** Its English name ("German"), when the code is known. */
  name: string | null;
}

/** Writing systems, each with the language it means when it is the text's own (null: several share it). */
const SCRIPTS: { script: string; pattern: RegExp; code: string | null }[] = [
  { script: "Latin", pattern: /\p{Script=Latin}/u, code: null },
  { script: "Han", pattern: /\p{Script=Han}/u, code: "zh" },
  { script: "Kana", pattern: /[\p{Script=Hiragana}\p{Script=Katakana}]/u, code: "ja" },
  { script: "Hangul", pattern: /\p{Script=Hangul}/u, code: "ko" },
  { script: "Cyrillic", pattern: /\p{Script=Cyrillic}/u, code: null },
  { script: "Arabic", pattern: /\p{Script=Arabic}/u, code: null },
  { script: "Hebrew", pattern: /\p{Script=Hebrew}/u, code: "he" },
  { script: "Greek", pattern: /\p{Script=Greek}/u, code: "el" },
  { script: "Thai", pattern: /\p{Script=Thai}/u, code: "th" },
  { script: "Devanagari", pattern: /\p{Script=Devanagari}/u, code: "hi" },
  { script: "Bengali", pattern: /\p{Script=Bengali}/u, code: "bn" },
  { script: "Tamil", pattern: /\p{Script=Tamil}/u, code: "ta" },
  { script: "Georgian", pattern: /\p{Script=Georgian}/u, code: "ka" },
  { script: "Armenian", pattern: /\p{Script=Armenian}/u, code: "hy" },
];

/**
 * Each language's most common function words (short, frequent, and between them telling close languages
 * apart: Danish "hvad", "af", "sig" against Norwegian "hva", "av", "seg").
 */
const FUNCTION_WORDS: Record<string, string> = {
  en: "the and of to in is are was were that this these those for with on as by it be from what how which have has not or an at they their do does why who can will would there been about than more most into between",
  de: "der die das und ist sind nicht ein eine einen einer eines dem den des zu mit von für auf im wie welche welcher welches was warum sich auch dass oder bei aus nach wird werden wurde über zwischen noch kann können wir hat haben gibt einem zum zur",
  fr: "le la les des est sont et un une du dans pour que qui sur avec pas ce cette ces au aux par plus quels quelles quel quelle comment pourquoi entre leur leurs ont être été il elle ne se sa son en ou mais donc soit dont aussi très",
  es: "el la los las y es son un una del en por para que con como qué cuáles cuál cómo entre su sus se al más lo está están ha han fue sobre pero también muy este esta estos",
  it: "il lo la gli le e è sono un una del della dei delle di in per che con come quali quale perché tra fra non si al alla nel nella più ha hanno anche questo questa sul degli",
  pt: "o a os as e é são um uma do da dos das de em no na nos nas para que com como quais qual porque entre não se ao mais foi tem têm também isso este esta pelo pela",
  nl: "de het een en is zijn van in op voor met dat die niet wat hoe welke waarom er ook aan bij door te om worden wordt werd naar dan heeft hebben tussen over",
  sv: "och är det att en ett som på för med av till den de inte vad hur vilka vilken varför har om från kan sig också mellan eller var vid",
  da: "og er det at en et som på for med af til den de ikke hvad hvordan hvilke hvorfor har om fra kan sig også mellem eller var ved",
  nb: "og er det at en et som på for med av til den de ikke hva hvordan hvilke hvorfor har om fra kan seg også mellom eller var ved",
  pl: "i w na z się nie jest są że do to jak jakie jaki dlaczego czy od po dla przez oraz lub między co o ten ta te był była być",
  cs: "a v na se je jsou že do to jak jaké jaký proč zda od po pro přes nebo mezi co o ten ta byl byla být není také které který",
  tr: "ve bir bu için ile da de mi mı ne nasıl neden hangi olan olarak daha en çok gibi arasında var yok değil ise ya veya",
  id: "dan yang di ke dari ini itu untuk dengan adalah tidak apa bagaimana mengapa pada dalam akan atau juga oleh sebagai antara ada lebih",
  ro: "și în de la cu pe este sunt un o că care ce cum pentru din nu mai sau al ale între fost această acest",
  hu: "a az és egy hogy nem van vannak is meg de mi mit hogyan miért milyen melyik között vagy csak már ez azt",
  fi: "ja on ei se että ovat oli mitä miten miksi mikä tai kanssa välillä myös kuin ole jos tämä niin",
  vi: "và của là các những có không được trong cho với một này đã như thế nào tại sao gì về từ người khi",
  ru: "и в не на что это как по с из к у о от для же то или но бы был была были быть какие какой почему между также",
  uk: "і в не на що це як по з із до у о від для же то або але б був була були бути які який чому між також",
  bg: "и в не на че това как по с от за за да се е са или но бил била били какви какъв защо между също",
  ar: "في من على إلى عن أن هذا هذه التي الذي مع كان ما هو هي لا أو بين كيف لماذا",
  fa: "و در به از که این را با است برای آن یک تا بر هم چه چرا چگونه بین",
  ur: "اور کے کی میں ہے سے کو یہ کہ نہیں پر کا ہیں کیا کیوں",
};

const WORDS_OF = new Map(Object.entries(FUNCTION_WORDS).map(([code, words]) => [code, new Set(words.split(" "))]));

/** The languages whose function words are looked for in a text of each script. */
const BY_SCRIPT: Record<string, string[]> = {
  Latin: ["en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "pl", "cs", "tr", "id", "ro", "hu", "fi", "vi"],
  Cyrillic: ["ru", "uk", "bg"],
  Arabic: ["ar", "fa", "ur"],
};

/** Per script: how many of its languages share each function word (a word shared by k counts 1/k for each). */
const SHARING = new Map(
  Object.entries(BY_SCRIPT).map(([script, codes]) => {
    const sharing = new Map<string, number>();
    for (const code of codes) for (const w of WORDS_OF.get(code)!) sharing.set(w, (sharing.get(w) ?? 0) + 1);
    return [script, sharing];
  }),
);

/** Han, kana and Hangul: one character says about as much as a word, and weighs three letters against alphabets. */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A word of a spaced script; an apostrophe parts words ("l'est" is "l" and "est", as French elides). */
const WORD = /[\p{L}\p{M}]+/gu;

const NAMES = new Intl.DisplayNames(["en"], { type: "language" });

const nameOf = (code: string): string => NAMES.of(code) ?? code;

/** What is not the writer's words: code, URLs and link targets, tags, citation marks, figures. */
function prose(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, " ")
    .replace(/`[^`\n]*`/g, " ")
    .replace(/\]\([^)\s]*\)/g, "] ")
    .replace(/\b(?:https?|ftp):\/\/\S+/gi, " ")
    .replace(/<[^>\n]{1,200}>/g, " ")
    .replace(/\[[^\]\n]{0,40}\]/g, " ");
}

/** The text's writing system: the script most of its letters are in (Han and kana together are Japanese when kana are many). */
function scriptOf(letters: string): { script: string; code: string | null } | null {
  const counts = new Map<string, number>();
  for (const ch of letters) {
    const s = SCRIPTS.find((candidate) => candidate.pattern.test(ch));
    if (s) counts.set(s.script, (counts.get(s.script) ?? 0) + 1);
  }
  const han = counts.get("Han") ?? 0;
  const kana = counts.get("Kana") ?? 0;
  // A Japanese text is written in Han and kana together: counted as one script.
  if (kana > 0 && kana >= (han + kana) * 0.1) {
    counts.set("Kana", han + kana);
    counts.delete("Han");
  }
  // Every letter of a script counts alike (Han, kana and Hangul three each: WIDE), so one letter's weight decides.
  const weight = (script: string, n: number) => (script === "Han" || script === "Kana" || script === "Hangul" ? n * 3 : n);
  let best: { script: string; weight: number } | null = null;
  for (const [script, n] of counts) if (!best || weight(script, n) > best.weight) best = { script, weight: weight(script, n) };
  if (!best) return null;
  const code = SCRIPTS.find((s) => s.script === best.script)?.code ?? null;
  return { script: best.script === "Kana" ? "Japanese" : best.script, code };
}

/** A text's letters, a Han, kana or Hangul character counting three (about a word's worth). */
function weighedLetters(text: string): number {
  let n = 0;
  for (const ch of text.replace(/[^\p{L}]/gu, "")) n += WIDE.test(ch) ? 3 : 1;
  return n;
}

/**
 * The language of a text, or null when it has no letters to tell by. `code` is null when only the script
 * is clear: a text of a few words, or with too few of any language's function words to tell.
 */
export function languageOf(text: string): Language | null {
  const clean = prose(text);
  const found = scriptOf(clean.replace(/[^\p{L}]/gu, ""));
  if (!found) return null;
  if (found.code) return { script: found.script, code: found.code, name: nameOf(found.code) };
  const candidates = BY_SCRIPT[found.script];
  if (!candidates) return { script: found.script, code: null, name: null };
  const words = clean.toLowerCase().match(WORD) ?? [];
  // A word shared by k of the script's languages counts 1/k for each: the telling words decide.
  const sharing = SHARING.get(found.script)!;
  const scores = candidates.map((code) => {
    const set = WORDS_OF.get(code)!;
    let score = 0;
    for (const w of words) if (set.has(w)) score += 1 / sharing.get(w)!;
    return { code, score };
  });
  scores.sort((a, b) => b.score - a.score);
  const [first, second] = scores;
  // Clear only when it leads: one and a half telling words at least, and half again the next language's score.
  const clear = first.score >= 1.5 && first.score >= second.score * 1.5;
  return clear ? { script: found.script, code: first.code, name: nameOf(first.code) } : { script: found.script, code: null, name: null };
}

/**
 * Whether a text of six words or more has none of a language's function words: not written in it (a quote of
 * a page in another language than the sentence it supports, too short to tell its own language by).
 */
export function notWrittenIn(text: string, code: string): boolean {
  const own = WORDS_OF.get(code);
  if (!own) return false;
  const words = prose(text).toLowerCase().match(WORD) ?? [];
  return words.length >= 6 && !words.some((w) => own.has(w));
}

/** The language of what the user wrote (their prompt, their answers): what every text they read is written in. */
export function usersLanguage(...texts: (string | null | undefined)[]): Language | null {
  return languageOf(texts.filter(Boolean).join("\n"));
}

/**
 * The instruction an agent writing for the user is given: the language by name when it is known. `whose`
 * names what the user wrote ("the researcher's prompt"); `what`, what is to be written in it (all it writes).
 */
export function languageRule(language: Language | null, whose: string, what = ""): string {
  const named = language?.name ? `${language.name}, the language of ${whose}` : `the language of ${whose}`;
  return `Write ${what ? `${what} ` : ""}in ${named}, whatever the language of the sources or of these instructions.`;
}

/**
 * The language of a conversation's user: their latest message's when it is clear on its own, else told from
 * it and the objective together (a short "go on" says little).
 */
export function conversationLanguage(latestMessage: string | null, objective: string): Language | null {
  const own = latestMessage ? languageOf(latestMessage) : null;
  return own?.code ? own : usersLanguage(latestMessage, objective);
}

/** Letters a paragraph in another script must have to be a drift (a Chinese title or name quoted is not). */
const DRIFTED_PARAGRAPH = 100;

/**
 * The language a text was written in when it is clearly not the one expected: another script, or another
 * language of the same script told apart with confidence; or, in a text of the expected script, a paragraph
 * of another script (a model that drifted mid-reply, as Qwen's do into Chinese). Null when it is the expected
 * one, or cannot be told. A text of fewer than 200 letters is not judged (a short reply may be all names and figures).
 */
export function otherLanguage(written: string, expected: Language | null): Language | null {
  if (!expected) return null;
  const found = languageOf(written);
  if (!found) return null;
  if (weighedLetters(prose(written)) < 200) return null;
  if (found.script !== expected.script) return found;
  if (found.code && expected.code && found.code !== expected.code) return found;
  for (const paragraph of written.split(/\n\s*\n/)) {
    const own = languageOf(paragraph);
    if (own && own.script !== expected.script && weighedLetters(prose(paragraph)) >= DRIFTED_PARAGRAPH) return own;
  }
  return null;
}

/**
 * A text written in another language than the user's, as a problem to send it back with: what the log says
 * and what the writer is told. Null when it is in the user's language, or that cannot be told.
 */
export function languageProblem(written: string, expected: Language | null, what: string): { log: string; told: string } | null {
  const found = otherLanguage(written, expected);
  if (!found || !expected) return null;
  const was = found.name ?? `the ${found.script} script`;
  const wanted = expected.name ?? `the language of the user's own words (${expected.script} script)`;
  return {
    log: `the ${what} was written in ${was}, not ${expected.name ?? `the ${expected.script} script`}`,
    told: `The ${what} you wrote is in ${was}, but the user wrote in ${wanted}. Write the whole ${what} again in ${wanted}, keeping its citations.`,
  };
}
