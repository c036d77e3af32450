import assert from "node:assert/strict";
import { test } from "node:test";
import { conversationLanguage, languageOf, languageProblem, languageRule, otherLanguage, usersLanguage } from "./language";

const PROMPTS: [string, string][] = [
  ["en", "What are the effects of remote work on the productivity of software teams?"],
  ["de", "Wie wirkt sich die Arbeit im Homeoffice auf die Produktivität von Softwareteams aus?"],
  ["fr", "Quels sont les effets du télétravail sur la productivité des équipes de développement ?"],
  ["es", "¿Cuáles son los efectos del teletrabajo en la productividad de los equipos de software?"],
  ["it", "Quali sono gli effetti del lavoro da remoto sulla produttività dei team di sviluppo?"],
  ["pt", "Quais são os efeitos do trabalho remoto na produtividade das equipes de software?"],
  ["nl", "Wat zijn de effecten van thuiswerken op de productiviteit van softwareteams?"],
  ["sv", "Vad är effekterna av distansarbete på produktiviteten i mjukvaruteam och hur mäts det?"],
  ["da", "Hvad er effekterne af hjemmearbejde på produktiviteten i softwareteams, og hvordan måles det?"],
  ["nb", "Hva er effektene av hjemmekontor på produktiviteten i programvareteam, og hvordan måles det?"],
  ["pl", "Jakie są skutki pracy zdalnej dla produktywności zespołów programistycznych i dlaczego?"],
  ["tr", "Uzaktan çalışmanın yazılım ekiplerinin verimliliği üzerindeki etkileri nelerdir ve neden bu kadar çok tartışılıyor?"],
  ["id", "Apa dampak kerja jarak jauh terhadap produktivitas tim perangkat lunak dan bagaimana cara mengukurnya?"],
  ["ru", "Как удалённая работа влияет на производительность команд разработчиков и почему?"],
  ["uk", "Як віддалена робота впливає на продуктивність команд розробників і чому?"],
  ["zh", "远程办公对软件团队的生产力有什么影响？"],
  ["ja", "リモートワークはソフトウェアチームの生産性にどのような影響を与えますか？"],
  ["ko", "원격 근무가 소프트웨어 팀의 생산성에 어떤 영향을 미칩니까?"],
  ["ar", "ما هي آثار العمل عن بعد على إنتاجية فرق البرمجيات؟"],
  ["el", "Ποιες είναι οι επιπτώσεις της τηλεργασίας στην παραγωγικότητα των ομάδων λογισμικού;"],
  ["he", "מהן ההשפעות של עבודה מרחוק על הפרודוקטיביות של צוותי תוכנה?"],
];

test("the language of a research prompt, in each of many languages, is told by name", () => {
  for (const [code, prompt] of PROMPTS) {
    const found = languageOf(prompt);
    assert.equal(found?.code, code, `${prompt} → ${JSON.stringify(found)}`);
    assert.ok(found.name && found.name.length > 2, `${code} has a name: ${found.name}`);
  }
  assert.equal(languageOf(PROMPTS[1][1])?.name, "German");
  assert.equal(languageOf(PROMPTS[15][1])?.name, "Chinese");
});

test("a few words with no function word name their script only; no letters, nothing", () => {
  assert.deepEqual(languageOf("Solid-state batteries 2025"), { script: "Latin", code: null, name: null });
  assert.deepEqual(languageOf("Твердотельные аккумуляторы"), { script: "Cyrillic", code: null, name: null });
  assert.equal(languageOf("2024 — 42% (+3)"), null);
});

test("URLs, code, citations and link targets are not the writer's words", () => {
  const german = "Die Preise sind im Jahr 2024 um 14% gefallen [1](https://example.org/the-report-of-the-year-and-the-data) und werden weiter fallen `the value of the thing` [S3].";
  assert.equal(languageOf(german)?.code, "de");
});

test("the users' language is read from their own words together", () => {
  assert.equal(usersLanguage("Wärmepumpen in Altbauten", null, "Nur Deutschland, und die Kosten sind wichtig")?.code, "de");
});

test("the rule names the language, or asks for the user's own when it is not known", () => {
  assert.match(languageRule(languageOf(PROMPTS[1][1]), "the researcher's prompt"), /^Write in German, the language of the researcher's prompt/);
  assert.match(languageRule(languageOf("Solid-state batteries"), "the question"), /^Write in the language of the question/);
  assert.match(languageRule(null, "the question"), /^Write in the language of the question/);
});

const REPORT_EN = `# Heat pumps in old buildings

Heat pumps work in most old buildings when the radiators are large enough [1](https://a.example/x). The cost of the
installation fell by a fifth between 2021 and 2024, and the savings are largest where the house is insulated [2](https://b.example/y).
There is still no agreement on how the noise of outdoor units should be measured.`;

const REPORT_DE = `# Wärmepumpen in Altbauten

Wärmepumpen funktionieren in den meisten Altbauten, wenn die Heizkörper groß genug sind [1](https://a.example/x). Die Kosten der
Installation sind zwischen 2021 und 2024 um ein Fünftel gefallen, und die Einsparungen sind dort am größten, wo das Haus gedämmt ist [2](https://b.example/y).
Es gibt noch keine Einigkeit darüber, wie der Lärm der Außengeräte gemessen werden soll.`;

const REPORT_ZH = `# 旧建筑中的热泵

当散热器足够大时，热泵在大多数旧建筑中都能正常工作[1](https://a.example/x)。2021年至2024年间，安装成本下降了五分之一，而在房屋隔热良好的地方节省最多[2](https://b.example/y)。关于如何测量室外机的噪音，目前仍没有共识。研究人员认为还需要更多的数据，尤其是在寒冷地区的长期测量结果，以及不同品牌之间的比较。`;

test("a report in another language than the user's is told, by script and by language", () => {
  const german = languageOf("Wie gut funktionieren Wärmepumpen in Altbauten, und was kosten sie?");
  const english = languageOf("How well do heat pumps work in old buildings, and what do they cost?");
  assert.equal(otherLanguage(REPORT_DE, german), null);
  assert.equal(otherLanguage(REPORT_EN, english), null);
  assert.equal(otherLanguage(REPORT_EN, german)?.code, "en");
  assert.equal(otherLanguage(REPORT_DE, english)?.code, "de");
  assert.equal(otherLanguage(REPORT_ZH, english)?.code, "zh");
  // A prompt too short to tell its language still has a script: a report in another script is told.
  const shortPrompt = languageOf("Heat pumps, old buildings");
  assert.equal(shortPrompt?.code, null);
  assert.equal(otherLanguage(REPORT_ZH, shortPrompt)?.code, "zh");
  assert.equal(otherLanguage(REPORT_EN, shortPrompt), null);
  // A short reply is not judged (it may be all names and figures), nor is anything when the user's language is unknown.
  assert.equal(otherLanguage("Heat pumps work [1](https://a.example/x).", german), null);
  assert.equal(otherLanguage(REPORT_ZH, null), null);
});

test("a report that drifts into another script for a paragraph is told; a name or title in it is not", () => {
  const english = languageOf("How well do heat pumps work in old buildings, and what do they cost?");
  const drifted = `${REPORT_EN}\n\n${REPORT_ZH.split("\n\n")[1]}`;
  assert.equal(otherLanguage(drifted, english)?.code, "zh");
  assert.equal(otherLanguage(`${REPORT_EN}\n\nThe largest maker is 格力电器 (Gree Electric).`, english), null);
});

test("an English report quoting German titles, and a German one quoting English, keep their language", () => {
  const quoting = `${REPORT_EN}\n\nThe survey "Die Wärmepumpe im Bestand: Ergebnisse der Feldmessung" is the largest of them.`;
  assert.equal(otherLanguage(quoting, languageOf("How well do heat pumps work in old buildings?")), null);
  const quotingEn = `${REPORT_DE}\n\nDie Studie "Heat pumps in the existing stock: results of the field test" ist die größte davon.`;
  assert.equal(otherLanguage(quotingEn, languageOf("Wie gut funktionieren Wärmepumpen in Altbauten?")), null);
});

test("the problem names both languages; none when the text is in the user's", () => {
  const english = languageOf("How well do heat pumps work in old buildings?");
  const problem = languageProblem(REPORT_ZH, english, "report");
  assert.match(problem?.told ?? "", /in Chinese, but the user wrote in English\. Write the whole report again in English/);
  assert.equal(problem?.log, "the report was written in Chinese, not English");
  assert.equal(languageProblem(REPORT_EN, english, "report"), null);
});

test("a conversation's language is its user's latest message's, or told with the objective when that is short", () => {
  assert.equal(conversationLanguage("Bitte fahre fort und prüfe die Daten für das Jahr 2024", "Sales trends")?.code, "de");
  assert.equal(conversationLanguage("ok", "Welche Trends zeigen die Verkaufszahlen für das Jahr 2024?")?.code, "de");
  assert.equal(conversationLanguage(null, "What trends do the sales figures show for 2024?")?.code, "en");
});
