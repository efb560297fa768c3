/** docs/problems.md lists exactly the catalogue's codes: a code added, changed or removed without `npm run docs:problems` fails here. */
import { readFileSync } from 'node:fs';
import { pageWithTable, PROBLEMS_PAGE } from '../../tools/docs/problems-page';

test("docs/problems.md's table is the catalogue's", () => {
  const page = readFileSync(PROBLEMS_PAGE, 'utf8');
  expect(page).toBe(pageWithTable(page));
});
