// Files of every kind the provider takes (docs/media.md "Types and limits"), made in the test:
// real images (sharp), a real PDF and text, and the leading bytes of the audio and video
// containers (what the type detection reads; padded to the size a test asks for).
import { randomBytes } from "node:crypto";
import zlib from "node:zlib";
import sharp from "sharp";

/** A PNG of random pixels: incompressible, so its size follows its dimensions (about 3 bytes a pixel). */
export async function noisePng(width: number, height = width): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

export async function jpeg(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .toBuffer();
}

export async function webpSticker(): Promise<Buffer> {
  return sharp({ create: { width: 96, height: 96, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .webp()
    .toBuffer();
}

/** A WebP whose header says animated (VP8X with the animation flag and an ANIM chunk), `size` bytes. */
export function animatedWebpHeader(size: number): Buffer {
  const body = Buffer.alloc(Math.max(size, 64));
  body.write("RIFF", 0, "latin1");
  body.writeUInt32LE(body.length - 8, 4);
  body.write("WEBP", 8, "latin1");
  body.write("VP8X", 12, "latin1");
  body.writeUInt32LE(10, 16);
  body[20] = 0x02;
  body.write("ANIM", 30, "latin1");
  return body;
}

/** A small but real PDF with one line of text; `padTo` appends a comment to reach a size. */
export function pdf(text = "Order 1042: return label", padTo = 0): Buffer {
  const stream = `BT /F1 18 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const file = Buffer.from(out, "latin1");
  return padTo > file.length ? Buffer.concat([file, Buffer.alloc(padTo - file.length, 0x20)]) : file;
}

/** An ISO media file's header (`ftyp` with a brand: isom mp4, 3gp4 3GPP, "M4A " audio), padded. */
export function isoMedia(brand: "isom" | "3gp4" | "M4A ", size = 4096): Buffer {
  const out = Buffer.alloc(Math.max(size, 32));
  out.writeUInt32BE(24, 0);
  out.write("ftyp", 4, "latin1");
  out.write(brand, 8, "latin1");
  out.writeUInt32BE(0, 12);
  out.write(brand, 16, "latin1");
  out.write("mp41", 20, "latin1");
  out.writeUInt32BE(out.length - 24, 24);
  out.write("mdat", 28, "latin1");
  return out;
}

/** An Ogg page holding an Opus header (a voice note's container), padded. */
export function oggOpus(size = 4096): Buffer {
  const out = Buffer.alloc(Math.max(size, 64));
  out.write("OggS", 0, "latin1");
  out[5] = 0x02;
  out[26] = 1;
  out[27] = 19;
  out.write("OpusHead", 28, "latin1");
  out[36] = 1;
  out[37] = 1;
  return out;
}

/** An MP3 (an ID3v2 tag, then frames), padded. */
export function mp3(size = 4096): Buffer {
  const out = Buffer.alloc(Math.max(size, 32));
  out.write("ID3", 0, "latin1");
  out[3] = 4;
  out.set([0xff, 0xfb, 0x90, 0x64], 10);
  return out;
}

export const text = (body = "Tracking number: 1Z999AA10123456784\nThanks!\n") => Buffer.from(body, "utf8");

/** A stored (uncompressed) ZIP of these entries: the shape of an Office Open XML file. */
export function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.from(content, "utf8");
    const nameBytes = Buffer.from(name, "utf8");
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A Word document's container (what the detection reads of a .docx). */
export const docx = () =>
  zip({
    "[Content_Types].xml":
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    "word/document.xml": "<w:document/>",
  });
