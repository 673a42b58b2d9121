import { FileHandle, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

const MB = 1024 * 1024;

export interface RotationOptions {
  /** megabytes; 0: never rotate */
  maxSizeMb: number;
  /** rotated files kept; 0: all */
  maxBackups: number;
  /** days a rotated file is kept; 0: forever */
  maxAgeDays: number;
}

/**
 * Appends audit events as JSON lines to --audit-log-path ('-': standard output), rotating it as kube-apiserver's
 * log backend does: past the size the file is renamed to `<name>-<timestamp><ext>` beside it, and rotated files
 * beyond the count or age are removed.
 */
export class LogFileSink {
  private file?: FileHandle;
  private size = 0;

  constructor(
    private readonly path: string,
    private readonly rotation: RotationOptions,
  ) {}

  /** Appends events, each already serialized as one line of JSON. */
  async write(events: readonly { json: string }[]): Promise<void> {
    const text = events.map((e) => e.json).join('\n') + '\n';
    if (this.path === '-') {
      process.stdout.write(text);
      return;
    }
    if (!this.file) {
      this.file = await open(this.path, 'a', 0o600);
      this.size = (await this.file.stat()).size;
    }
    await this.file.write(text);
    this.size += Buffer.byteLength(text);
    if (this.rotation.maxSizeMb > 0 && this.size >= this.rotation.maxSizeMb * MB) await this.rotate();
  }

  async close(): Promise<void> {
    await this.file?.close();
    this.file = undefined;
  }

  private async rotate(): Promise<void> {
    await this.close();
    const ext = extname(this.path);
    const stem = basename(this.path, ext);
    const stamp = new Date().toISOString().replace(/:/g, '-').replace('Z', '');
    await rename(this.path, join(dirname(this.path), `${stem}-${stamp}${ext}`));
    this.size = 0;
    const { maxBackups, maxAgeDays } = this.rotation;
    const rotated = (await readdir(dirname(this.path)))
      .filter((f) => f.startsWith(`${stem}-`) && f.endsWith(ext) && /\d{4}-\d\d-\d\dT/.test(f))
      .sort()
      .reverse();
    const oldest = Date.now() - maxAgeDays * 24 * 3600 * 1000;
    for (const [index, file] of rotated.entries()) {
      const full = join(dirname(this.path), file);
      const tooMany = maxBackups > 0 && index >= maxBackups;
      const tooOld = maxAgeDays > 0 && (await stat(full)).mtimeMs < oldest;
      if (tooMany || tooOld) await unlink(full);
    }
  }
}
