// The demo's files (docs/media.md "Simulator and CLI"): a contact's photo, a receipt and a return label, made here
// as real PNG and PDF bytes (small, no image library at start-up) so the inbox shows them as
// it shows any file, served from the store like the rest.
import { crc32, deflateSync } from "node:zlib";

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG whose pixels `color(x, y)` paints (each scanline unfiltered). */
function png(width: number, height: number, color: (x: number, y: number) => [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // truecolour
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    for (let x = 0; x < width; x++) raw.set(color(x, y), row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A kettle's cracked lid, as a contact would photograph it: a steel disc on a wooden table with a dark crack. */
export function kettlePhoto(): Buffer {
  const [w, h] = [480, 360];
  return png(w, h, (x, y) => {
    const [dx, dy] = [x - w / 2, y - h / 2];
    const r = Math.hypot(dx, dy);
    if (r < 130) {
      // The crack: a jagged line from the rim towards the knob.
      const crack = Math.abs(dy - dx * 0.45 - 12 * Math.sin(dx / 9)) < 2.2 && dx > -10 && dx < 125;
      if (crack) return [30, 30, 34];
      if (r < 22) return [40, 40, 44];
      const shine = Math.max(0, 1 - Math.hypot(dx + 45, dy + 45) / 140);
      const v = Math.round(150 + 90 * shine - r * 0.2);
      return [v, v + 4, v + 10];
    }
    const grain = Math.round(18 * Math.sin(y / 7 + Math.sin(x / 40) * 2));
    return [150 + grain, 100 + grain, 60 + Math.round(grain / 2)];
  });
}

/** A pair of trainers' worn sole, a second contact's photo: shades of grey and a tread pattern on blue. */
export function solePhoto(): Buffer {
  const [w, h] = [360, 480];
  return png(w, h, (x, y) => {
    const [dx, dy] = [(x - w / 2) / 110, (y - h / 2) / 210];
    if (dx * dx + dy * dy < 1) {
      const tread = (Math.floor(x / 14) + Math.floor(y / 14)) % 2 === 0 ? 20 : 0;
      const worn = y > h * 0.62 && Math.abs(x - w / 2) < 55 ? 45 : 0;
      const v = 70 + tread + worn;
      return [v, v, v];
    }
    return [60, 110, 170];
  });
}

/** A one-page PDF with lines of text (Helvetica), as a receipt or a label is. */
export function textPdf(title: string, lines: readonly string[]): Buffer {
  const literal = (t: string) => t.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = [`/F1 20 Tf 50 760 Td (${literal(title)}) Tj`, "/F1 12 Tf"]
    .concat(lines.map((l) => `0 -22 Td (${literal(l)}) Tj`))
    .join(" ");
  const stream = `BT ${text} ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
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
  return Buffer.from(out, "latin1");
}
