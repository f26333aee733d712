// The server's start page until the full board page arrives: recent games
// from the API, each a link to its game page.
const app = document.getElementById("app");

async function main() {
  const res = await fetch("/api/games?limit=20");
  const { games } = await res.json();
  const rows = games
    .map((g) => `<tr><td><a href="/game/${g.id}">${g.id}</a></td><td>${g.mode}</td><td>${g.variant}</td><td>${g.ply}</td><td>${g.result ?? g.status}</td></tr>`)
    .join("");
  app.innerHTML = `<h1>PÜNCT</h1>
    <p>The game server is running. The API is described in docs/API.md.</p>
    <h2>Recent games</h2>
    <table><tr><th>game</th><th>mode</th><th>variant</th><th>plies</th><th>status</th></tr>${rows}</table>`;
}

main().catch((e) => { app.textContent = `Cannot load games: ${e}`; });
