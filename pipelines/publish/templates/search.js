/* The player search of players/index.html: reads the static index (index.json) once and shows
   the players whose name or club holds every word typed (accents and case aside). Every name
   is put in the page as text (textContent), never as markup. Without a web server (a site
   opened from the disk) the index cannot be fetched: the page says so, and its list of every
   player still works. */
(function () {
  "use strict";
  var box = document.getElementById("player-search");
  var found = document.getElementById("found");
  var status = document.getElementById("search-status");
  if (!box || !found || !status) { return; }
  var index = null;
  function plain(text) {
    return String(text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  function show() {
    var words = plain(box.value).split(/\s+/).filter(function (w) { return w; });
    found.replaceChildren();
    if (!index) { return; }
    if (!words.length) { status.textContent = ""; return; }
    var hits = index.filter(function (e) {
      return words.every(function (w) { return e.key.indexOf(w) >= 0; });
    });
    hits.slice(0, 50).forEach(function (e) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.setAttribute("href", e.player.href);
      a.textContent = e.player.name;
      li.appendChild(a);
      if (e.player.club) {
        var club = document.createElement("span");
        club.className = "muted";
        club.textContent = " " + e.player.club;
        li.appendChild(club);
      }
      found.appendChild(li);
    });
    status.textContent = hits.length === 0 ? "No player found." :
      hits.length > 50 ? hits.length + " players found; the first 50 shown." :
      hits.length + (hits.length === 1 ? " player found." : " players found.");
  }
  box.addEventListener("input", show);
  fetch(box.getAttribute("data-index"))
    .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
    .then(function (data) {
      index = data.players.map(function (p) {
        return { player: p, key: plain(p.name + " " + (p.club || "")) };
      });
      box.disabled = false;
      show();
    })
    .catch(function () {
      status.textContent = "The search needs the site served by a web server; every player is listed below.";
    });
}());
