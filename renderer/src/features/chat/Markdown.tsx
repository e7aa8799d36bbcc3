// An answer as Markdown (react-markdown + remark-gfm: code blocks, lists, tables), safely: raw HTML
// in the text is dropped (skipHtml; no rehype-raw), link targets pass react-markdown's URL filter
// (no javascript:), links inside Hearth open in the app, others in a new tab without a referrer,
// and pictures are shown as links (a model's image URL would otherwise make this device fetch it).
import type { ReactElement } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import remarkGfm from 'remark-gfm';

const isInternal = (href: string) => href.startsWith('/') && !href.startsWith('//');

const components: Components = {
  a: ({ href, children }) => {
    if (!href) return <span>{children}</span>;
    if (isInternal(href)) return <Link to={href}>{children}</Link>;
    return (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {children}
      </a>
    );
  },
  img: ({ src, alt }) => {
    const href = typeof src === 'string' ? src : '';
    return href ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow">
        {alt || 'Picture'}
      </a>
    ) : (
      <span>{alt}</span>
    );
  },
  table: ({ children }) => (
    <div className="chat-md__table">
      <table>{children}</table>
    </div>
  ),
};

export function Markdown({ text }: { text: string }): ReactElement {
  return (
    <div className="chat-md">
      <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
}
