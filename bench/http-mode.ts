import type { BenchOptions } from './parse-options.ts';
import type { QueryParams } from './query-mix.ts';

export async function runHttpMode(_o: BenchOptions, _corpus: string, _params: QueryParams, _outDir: string, _started: Date): Promise<number> {
  console.error('--http: not implemented yet');
  return 2;
}
