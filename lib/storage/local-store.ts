// The local engine: one file per object under a root folder (DATA_DIR/media by default, no
// configuration, as the embedded database). Writes go to a temporary name beside the
// final one and are renamed into place, so a reader never sees half a file.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { assertKey, type ByteRange, type ObjectStore } from "./object-store";

export function createLocalStore(root: string): ObjectStore {
  const absolute = path.resolve(root);
  const pathOf = (key: string) => {
    assertKey(key);
    return path.join(absolute, key);
  };

  return {
    engine: "local",

    async putFile(key, file) {
      const target = pathOf(key);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await fs.promises.rename(file, temporary);
      } catch (error) {
        // Another file system (a staging folder elsewhere): copied, streamed.
        if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
        await pipeline(fs.createReadStream(file), fs.createWriteStream(temporary));
      }
      try {
        await fs.promises.rename(temporary, target);
      } catch (error) {
        await fs.promises.rm(temporary, { force: true });
        throw error;
      }
    },

    async stat(key) {
      try {
        const s = await fs.promises.stat(pathOf(key));
        return s.isFile() ? { size: s.size } : null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },

    async read(key, range?: ByteRange) {
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(pathOf(key), "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      // The stream owns the handle: it closes it at its end, on error, or when destroyed.
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    async remove(key) {
      await fs.promises.rm(pathOf(key), { force: true });
    },
  };
}
