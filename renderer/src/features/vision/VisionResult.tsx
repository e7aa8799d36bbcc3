// An analysis shown as readable fields: a caption and the things seen, the text as read, a receipt
// as a table with its total, a label's fields, or the member's own schema's fields.
import type { ReactElement } from 'react';
import type { AnalyzeResponse } from './queries';

type Result = AnalyzeResponse['result'];

const text = (v: unknown): string => (v === null || v === undefined || v === '' ? 'Not read' : typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));
const price = (v: unknown): string => (typeof v === 'number' ? v.toFixed(2) : 'Not read');

function Fields({ rows }: { rows: Array<[string, unknown]> }): ReactElement {
  return (
    <dl className="vision__fields">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{text(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Receipt({ result }: { result: Result }): ReactElement {
  const items = Array.isArray(result.items) ? (result.items as Array<{ name?: unknown; price?: unknown }>) : [];
  return (
    <>
      <Fields
        rows={[
          ['Shop', result.shop],
          ['Date', result.date],
        ]}
      />
      {items.length === 0 ? (
        <p className="muted">No items with prices were read on this receipt.</p>
      ) : (
        <table className="vision__table" data-testid="vision-receipt">
          <caption className="visually-hidden">Items on the receipt</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col" className="vision__price">
                Price
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((item, i) => (
              <tr key={i}>
                <td>{text(item.name)}</td>
                <td className="vision__price">{price(item.price)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="vision__price">{price(result.total)}</td>
            </tr>
          </tfoot>
        </table>
      )}
    </>
  );
}

export function VisionResult({ answer }: { answer: AnalyzeResponse }): ReactElement {
  const { result } = answer;
  switch (answer.task) {
    case 'describe': {
      const objects = Array.isArray(result.objects) ? result.objects.map(text) : [];
      return (
        <>
          <p>{text(result.caption)}</p>
          {objects.length > 0 ? (
            <ul className="vision__objects" aria-label="Things seen">
              {objects.map((o, i) => (
                <li key={i}>{o}</li>
              ))}
            </ul>
          ) : (
            <p className="muted">No separate things were named.</p>
          )}
        </>
      );
    }
    case 'text':
      return text(result.text) === 'Not read' ? <p className="muted">No text was read in this photo.</p> : <pre className="vision__text">{text(result.text)}</pre>;
    case 'receipt':
      return <Receipt result={result} />;
    case 'label': {
      const fields = result.fields && typeof result.fields === 'object' ? Object.entries(result.fields as Record<string, unknown>) : [];
      return (
        <Fields
          rows={[
            ['Product', result.product],
            ['Brand', result.brand],
            ['Model', result.model],
            ['Serial number', result.serial],
            ...fields,
          ]}
        />
      );
    }
    case 'schema':
      return <Fields rows={Object.entries(result)} />;
  }
}
