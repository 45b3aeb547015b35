export declare const MAX_FUNCTION_LINES: number;

export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}
export interface FolderCycle {
  folders: string[];
  edges: { edge: string; via: string[] }[];
}
export interface Undeclared {
  file: string;
  specifier: string;
  package: string;
  need: string;
}
export interface CodeShape {
  longFunctions: LongFunction[];
  cycles: FolderCycle[];
  undeclared: Undeclared[];
}

export declare function checkCodeShape(
  root: string,
  options?: { shaped?: string[]; others?: string[]; max?: number },
): CodeShape;
export declare function describe(result: CodeShape, max?: number): string[];
export declare function folderOf(file: string): string;
export declare function packageOf(specifier: string): string | null;
