// axe-core in the page: its source (node_modules/axe-core/axe.min.js) is
// evaluated through the DevTools protocol (page.evaluate), which the
// page's Content-Security-Policy does not govern, so the policy stays on
// and no violation is caused (an injected <script> would be one).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { E2E_DIR } from './server.mjs';

const AXE = readFileSync(path.join(E2E_DIR, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe's violations on the page now (WCAG 2.0/2.1 A and AA), each {id, impact, help, nodes: [target…]}. */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const res = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return res.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')} ${n.failureSummary ? `(${n.failureSummary.replace(/\s+/g, ' ').slice(0, 200)})` : ''}`),
    }));
  });
}

/** The serious and critical ones. */
export const serious = (vs) => vs.filter((v) => v.impact === 'serious' || v.impact === 'critical');

/** Violations in words, one per line with their elements. */
export const describeViolations = (vs) => vs.map((v) => `${v.id} [${v.impact}] ${v.help}\n    ${v.nodes.join('\n    ')}`).join('\n  ');
