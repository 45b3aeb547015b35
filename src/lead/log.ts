/** Structured logs: one JSON object a line. Never given a secret to print. */
export type Log = (event: string, fields?: Record<string, unknown>) => void;

export const jsonLog: Log = (event, fields = {}) => {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields })}\n`);
};

/**
 * A text from elsewhere (the CRM's own words) with a lead's e-mail, phone number and name taken
 * out, for logs and alerts, which never hold a person's data.
 */
export function redact(
  text: string,
  lead: { email?: string; phone?: string; fullName?: string },
): string {
  let out = text;
  for (const value of [lead.email, lead.phone, lead.fullName]) {
    const v = value?.trim();
    if (v && v.length >= 3) out = out.split(v).join('[redacted]');
  }
  return out;
}
