// The helpers behind the `dyno.view` and copy commands (src/page.ts).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { COPY_COMMANDS, COPY_WHAT, VIEW_COMMAND, copiedText, pagePath, pageTitle, viewArguments } from '../src/page';

test('a lens passes its own arguments; the palette shows the active document', () => {
  assert.deepEqual(viewArguments(['file:///a/billing.dyno', 'listUsers'], 'file:///b.dyno'), [
    'file:///a/billing.dyno',
    'listUsers',
  ]);
  assert.deepEqual(viewArguments([], 'file:///b.dyno'), ['file:///b.dyno']);
  assert.equal(viewArguments([], undefined), undefined);
});

test('the path is read from the server answer, and nothing else is taken for one', () => {
  assert.equal(pagePath({ path: '/tmp/dyno-view/billing-1.html' }), '/tmp/dyno-view/billing-1.html');
  for (const answer of [null, undefined, 'x', {}, { path: '' }, { path: 3 }]) {
    assert.equal(pagePath(answer), undefined, JSON.stringify(answer));
  }
});

test('the title names the file and the pattern', () => {
  assert.equal(pageTitle('file:///a/my%20billing.dyno', 'listUsers'), 'Dyno: my billing.dyno · listUsers');
  assert.equal(pageTitle('file:///a/billing.dyno', undefined), 'Dyno: billing.dyno');
  assert.equal(VIEW_COMMAND, 'dyno.view');
});

test('a copy command answers its text, and nothing else is taken for one', () => {
  assert.equal(copiedText({ text: "aws dynamodb query --cli-input-json '{}'" }), "aws dynamodb query --cli-input-json '{}'");
  for (const answer of [null, undefined, 'x', {}, { text: 3 }, { path: '/tmp/x' }]) {
    assert.equal(copiedText(answer), undefined, JSON.stringify(answer));
  }
  assert.deepEqual(COPY_COMMANDS, ['dyno.copyQuery', 'dyno.copyAwsCli']);
  for (const command of COPY_COMMANDS) {
    assert.ok(COPY_WHAT[command], command);
  }
});
