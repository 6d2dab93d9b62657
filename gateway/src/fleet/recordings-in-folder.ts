/**
 * The recordings a batch queues: the files under a folder whose path
 * relative to it matches a glob (`*` within a name, `**` across folders,
 * `?` one character). The default takes the usual transport stream names.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

export const DEFAULT_RECORDING_GLOB = '**/*.{ts,m2ts,mts,trp,tsv}';

/** Every matching file under `folder`, sorted, symbolic links not followed. */
export async function recordingsInFolder(folder: string, glob = DEFAULT_RECORDING_GLOB): Promise<string[]> {
  const pattern = globPattern(glob);
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && pattern.test(relative(folder, path))) found.push(path);
    }
  };
  await walk(folder);
  return found.sort();
}

/** A glob as a regular expression over a relative path. */
export function globPattern(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (glob.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      source += '.*';
      i += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) source += '\\{';
      else {
        source += `(?:${glob.slice(i + 1, end).split(',').map(escape).join('|')})`;
        i = end;
      }
    } else source += escape(char);
  }
  return new RegExp(`^${source}$`);
}

function escape(text: string): string {
  return text.replace(/[.+^${}()|[\]\\*?]/g, '\\$&');
}
