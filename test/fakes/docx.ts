// A minimal DOCX (a stored ZIP with the three parts Word and mammoth need), built in code: headings as
// the built-in "Heading N" styles, so that the product's DOCX parsing sees sections.
import zlib from "node:zlib";

/** A part stored as is (`data`), or deflated: its compressed bytes, with the size and CRC an archive declares. */
type Part = { name: string; data: Buffer } | { name: string; deflated: Buffer; size: number; crc: number };

function zip(files: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of files) {
    const nameBytes = Buffer.from(part.name, "utf8");
    const data = "data" in part ? part.data : part.deflated;
    const crc = "data" in part ? zlib.crc32(data) : part.crc;
    const size = "data" in part ? data.length : part.size;
    const method = "data" in part ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

const PACKAGE_PARTS = [
  {
    name: "[Content_Types].xml",
    data: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
  },
  {
    name: "_rels/.rels",
    data: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
  },
];

/**
 * A zip bomb: a valid DOCX whose word/document.xml is `inflatedBytes` of one repeated paragraph, made
 * in a blink at any size: a MiB of it is deflated once (level 9, ending on a sync flush, so deflate
 * blocks can follow) and those bytes repeated; 200 MB makes a file of a few hundred KB.
 * `declaredBytes`: the uncompressed size the archive claims instead (a lying header).
 */
export function buildDocxBomb({ inflatedBytes, declaredBytes }: { inflatedBytes: number; declaredBytes?: number }): Buffer {
  const head = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>`);
  const tail = Buffer.from("</w:body></w:document>");
  const paragraph = "<w:p><w:r><w:t>All work and no play makes Jack a dull boy. </w:t></w:r></w:p>";
  const block = Buffer.from(paragraph.repeat(Math.ceil((1024 * 1024) / paragraph.length)));
  const open = { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const blockDeflated = zlib.deflateRawSync(block, open);
  const blocks = Math.max(0, Math.floor((inflatedBytes - head.length - tail.length) / block.length));
  let crc = zlib.crc32(head);
  for (let i = 0; i < blocks; i++) crc = zlib.crc32(block, crc);
  crc = zlib.crc32(tail, crc);
  const deflated = Buffer.concat([zlib.deflateRawSync(head, open), ...Array.from({ length: blocks }, () => blockDeflated), zlib.deflateRawSync(tail, { level: 9 })]);
  const size = head.length + blocks * block.length + tail.length;
  return zip([...PACKAGE_PARTS, { name: "word/document.xml", deflated, size: declaredBytes ?? size, crc }]);
}

/**
 * `blocks`: a heading ({ heading, level }) or a paragraph ({ text }), in order. `title`: the title Word
 * keeps in the document's properties (docProps/core.xml dc:title), raw XML text (entities as written).
 */
export function buildDocx(blocks: Array<{ heading: string; level: number } | { text: string }>, { title }: { title?: string } = {}): Buffer {
  const body = blocks
    .map((b) =>
      "heading" in b
        ? `<w:p><w:pPr><w:pStyle w:val="Heading${b.level}"/></w:pPr><w:r><w:t>${escape(b.heading)}</w:t></w:r></w:p>`
        : `<w:p><w:r><w:t xml:space="preserve">${escape(b.text)}</w:t></w:r></w:p>`,
    )
    .join("");
  const core =
    title === undefined
      ? []
      : [
          {
            name: "docProps/core.xml",
            data: Buffer.from(
              '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
                `xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><dc:title>${title}</dc:title><dc:creator>Quarry tests</dc:creator></cp:coreProperties>`,
            ),
          },
        ];
  return zip([...PACKAGE_PARTS, ...core, { name: "word/document.xml", data: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}</w:body></w:document>`) }]);
}
