// negotiator 1.x, as this code uses it (DefinitelyTyped's types describe 0.6, without `preferred`).
declare module 'negotiator' {
  import type { IncomingMessage } from 'node:http';

  export default class Negotiator {
    constructor(request: Pick<IncomingMessage, 'headers'>);
    /**
     * The most preferred of `available` by the request's Accept-Encoding weights, `preferred`'s
     * order between equal weights; undefined when none is acceptable.
     */
    encoding(available: string[], options?: { preferred?: string[] }): string | undefined;
  }
}
