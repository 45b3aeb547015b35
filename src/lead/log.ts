/** Structured logs: one JSON object a line. Never given a secret to print. */
export type Log = (event: string, fields?: Record<string, unknown>) => void;

export const jsonLog: Log = (event, fields = {}) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields })}\n`);
};

export const silentLog: Log = () => {};
