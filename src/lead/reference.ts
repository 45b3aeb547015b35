/**
 * The reference a visitor is given on the confirmation page: the first eight characters of the
 * submission's id, in capitals. The CRM's note names the whole id ("Submission: ..."), which
 * begins with it, so the owner finds the request a caller quotes.
 */
export const shortReference = (submissionId: string): string =>
  submissionId.slice(0, 8).toUpperCase();
