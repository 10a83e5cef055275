/**
 * Progress for long work: a bar on a terminal, a plain line every few seconds otherwise (logs, CI).
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total?: number): void;
  stop(summary?: string): void;
}

export function startProgress(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label.padEnd(14)} [{bar}] {percentage}% {value}/{total} {eta_formatted}`, hideCursor: true, stream, etaBuffer: 50 },
      cliProgress.Presets.shades_classic,
    );
    bar.start(Math.max(total, 1), 0);
    return {
      update: (done, t) => {
        if (t !== undefined) bar.setTotal(Math.max(t, 1));
        bar.update(done);
      },
      stop: (summary) => {
        bar.stop();
        if (summary) stream.write(`${summary}\n`);
      },
    };
  }
  let last = 0;
  let current = 0;
  let max = total;
  const started = Date.now();
  return {
    update: (done, t) => {
      current = done;
      if (t !== undefined) max = t;
      if (Date.now() - last > 2000) {
        last = Date.now();
        stream.write(`${label}: ${done}/${max}\n`);
      }
    },
    stop: (summary) => stream.write(`${label}: ${current}/${max} in ${((Date.now() - started) / 1000).toFixed(1)} s${summary ? ` — ${summary}` : ''}\n`),
  };
}
