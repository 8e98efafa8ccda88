/** Loading capture files for the command line, through exactly the page's pipeline and decoders. */
import { loadModel } from '../import/pipeline.ts';
import { fileSource } from '../import/nodeSource.ts';
import type { LoadIssue, Model } from '../model/types.ts';

/** A file the command line could not use; the message names the file. */
export class CliFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliFileError';
  }
}

function describeFsError(path: string, e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return `${path}: no such file`;
    case 'EACCES':
    case 'EPERM':
      return `${path}: permission denied`;
    case 'EISDIR':
      return `${path}: is a directory`;
    default:
      return `${path}: cannot read: ${e.message}`;
  }
}

export async function loadFile(path: string): Promise<Model> {
  let source: Awaited<ReturnType<typeof fileSource>>;
  try {
    source = await fileSource(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new CliFileError(err.code ? describeFsError(path, err) : `${path}: ${err.message.replace(`${path}: `, '')}`);
  }
  try {
    const model = await loadModel(source);
    const events = model.ranges.startNs.length + model.marks.timeNs.length + model.counters.timeNs.length;
    const firstError = model.issues.find((i) => i.severity === 'error');
    if (events === 0 && firstError) {
      throw new CliFileError(`${path}: nothing could be decoded (${model.issues.length} problems; first: ${issueText(firstError)})`);
    }
    return model;
  } catch (e) {
    if (e instanceof CliFileError) throw e;
    const message = (e as Error).message;
    // Pipeline messages name the file by its base name; name it as the user typed it.
    throw new CliFileError(message.startsWith(`${source.name}: `) ? `${path}: ${message.slice(source.name.length + 2)}` : `${path}: ${message}`);
  } finally {
    await source.close();
  }
}

/** "line 12: message" / "byte 4096: message". */
export function issueText(issue: LoadIssue): string {
  const where = issue.line !== undefined ? `line ${issue.line}: ` : issue.offset !== undefined ? `byte ${issue.offset}: ` : '';
  return `${where}${issue.message}`;
}
