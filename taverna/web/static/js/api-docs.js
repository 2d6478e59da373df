// The API page (/docs): every operation of /openapi.json, its parameters and body.

import { html, setMarkup } from './html.js';

const spec = await (await fetch('/openapi.json')).json();
const resolve = (s) => (s && s.$ref ? spec.components.schemas[s.$ref.split('/').pop()] : s);

function operation(path, method, op) {
  const params = (op.parameters || []).map((p) => `${p.name} (${p.in})`).join(', ');
  const body = resolve(op.requestBody?.content?.['application/json']?.schema);
  return html`<section><div class="op"><span class="method ${method}">${method.toUpperCase()}</span>
    <code>${path}</code> <span class="summary">${op.summary}</span>
    <span class="tag">${(op.tags || []).join(', ')}</span></div>
    ${params ? html`<details><summary>parameters</summary><p>${params}</p></details>` : ''}
    ${body ? html`<details><summary>body</summary><pre>${JSON.stringify(body, null, 2)}</pre></details>` : ''}
    </section>`;
}

setMarkup(
  document.getElementById('ops'),
  html`${Object.entries(spec.paths).map(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => operation(path, method, op)),
  )}`,
);
