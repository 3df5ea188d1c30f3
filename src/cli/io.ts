/** What the CLI's commands get from the process (main.ts passes it on; tests give their own). */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
  writeFile: (path: string, body: string) => void;
  /** Reads a file (`--baseline`); default: the file system. */
  readFile?: (path: string) => string;
  fetch?: typeof fetch;
  isTTY?: boolean;
}
