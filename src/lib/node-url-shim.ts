/**
 * Browser stand-in for Node's `url` module, which xmlbuilder2's URL parser (@oozcitak/url) imports for
 * `domainToASCII`/`domainToUnicode` only. The WHATWG URL parser of the browser does the same IDNA mapping.
 */
export function domainToASCII(domain: string): string {
  try {
    return new URL(`http://${domain}/`).hostname;
  } catch {
    return '';
  }
}

export function domainToUnicode(domain: string): string {
  return domain;
}

export default { domainToASCII, domainToUnicode };
