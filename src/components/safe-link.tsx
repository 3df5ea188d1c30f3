import { httpUrl } from '../lib/url';

/** Agent-supplied URL: a link only for http(s), otherwise plain text. Never navigates the opener. */
export function SafeLink({ href, children }: { href: unknown; children?: string }) {
  const url = httpUrl(href);
  const text = children ?? (typeof href === 'string' ? href : String(href));
  if (!url) return <span className="untrusted-text">{text}</span>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer nofollow">
      {text}
    </a>
  );
}
