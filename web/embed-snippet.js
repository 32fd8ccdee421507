// The page's "Embed it" section: the snippet GET /api/arcade/embed answers, which pins every
// file the element loads by its hash, shown as is.
const shown = document.querySelector('#embed-snippet');

async function showSnippet() {
  const response = await fetch('/api/arcade/embed');
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.detail);
  shown.textContent = answer.snippet;
  shown.dataset.version = answer.version;
}

showSnippet().catch((error) => { shown.textContent = `The embed is not available: ${error.message}`; });
