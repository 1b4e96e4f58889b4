"""Ask the theme's own search worker (the one every page runs) for the results of many queries at once,
in a page of the built site: the index is read once, and each query's results come back grouped by page,
best first, as the search box shows them. With the claims (the default) the worker holds what the box
searches once search-later.js has added the claims' entries; without them, what the first search has."""

from __future__ import annotations

SEARCH = """async ([queries, withClaims]) => {
  const config = JSON.parse(document.getElementById('__config').textContent);
  const root = new URL(config.base.replace(/\\/?$/, '/'), location.href);
  const read = async name => (await fetch(new URL('search/' + name, root))).json();
  const index = await read('search_index.json');
  if (withClaims) index.docs = index.docs.concat((await read('search_claims.json')).docs);
  const worker = new Worker(new URL(config.search, root));
  const next = () => new Promise(resolve => worker.addEventListener('message', event => resolve(event.data), {once: true}));
  worker.postMessage({type: 0, data: Object.assign({options: {suggest: false}}, index)});
  while ((await next()).type !== 1) {}
  const answers = {};
  for (const query of queries) {
    worker.postMessage({type: 2, data: query});
    let message;
    while ((message = await next()).type !== 3) {}
    answers[query] = message.data.items.map(group => group.map(doc => doc.location));
  }
  worker.terminate();
  return answers;
}"""


def first_pages(tab, queries: list[str], with_claims: bool = True) -> dict[str, list[str]]:
    """Each query -> the pages of its results in the order shown (a page's location, without its anchor)."""
    answers = tab.evaluate(SEARCH, [queries, with_claims])
    return {query: [group[0].split("#")[0] for group in groups] for query, groups in answers.items()}
