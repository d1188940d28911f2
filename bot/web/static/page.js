// A game's page: the live board, or any step of the replay; the standings and the narrated moves. It follows
// the game through server-sent events. A seat's page (a player's own link) also shows that seat's hidden things
// and its moves: its buttons, and a tap on the live board opens the ways to the tapped cell; a move is one POST
// with the link's CSRF token, and the live update shows what it did. Texts come from the page (both
// languages); everything the server sends is put on the page as text, never as markup.
(function () {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const words = JSON.parse($('words').textContent);
  let state = JSON.parse($('state').textContent);
  let log = state.log || []; // the replay's steps: one per move
  let said = state.messages || []; // the channel's messages
  let at = null; // null: the live board; else the step shown
  let playing = null;
  let slid = null;
  const base = location.pathname.replace(/\/+$/, '');
  const lang = document.documentElement.lang;
  const img = $('board');
  const closeSource = $('board-close'); // the close-up the channel is shown, on a narrow screen (none: no close-up)
  const narrow = window.matchMedia('(max-width: 599px)');
  const offered = (element, key) => (element && element.dataset[key] ? element.dataset[key].split(' ').map(Number) : []);
  const wholeWidths = offered(img, 'whole'); // the widths the server offers the pictures at: the last their own
  const closeWidths = offered(closeSource, 'close');
  let wantWhole = false; // the whole board asked for on a narrow screen
  const slider = $('slider');

  let tries = 0; // how often the board shown was asked again after it failed to load

  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
  const fingerprint = (n) => (n === 0 ? state.start : log[n - 1] && log[n - 1].fp);
  const shown = () => (at === null ? state.moves : Math.min(at, state.moves));

  function boardUrl(n, close) {
    const fp = fingerprint(n);
    return fp ? base + '/board/' + n + '-' + fp + (close ? '-close' : '') + '.png?lang=' + encodeURIComponent(lang) : null;
  }

  function srcset(url, widths) {
    return widths.map((w, i) => (i === widths.length - 1 ? url : url + '&w=' + w) + ' ' + w + 'w').join(', ');
  }

  function closeShown() { // the close-up on a narrow screen, unless the whole board is asked for or a cell is to tap
    return closeSource !== null && narrow.matches && !wantWhole && !choosing();
  }

  function resolved(set) { // a srcset with its addresses made absolute, to compare the page's with ours
    return set === null ? null : set.split(', ').map((c) => {
      const [address, width] = c.split(' ');
      return new URL(address, location.href).href + ' ' + width;
    }).join(', ');
  }

  function picture(n, url) { // the step's pictures, asked for only when they change
    const set = wholeWidths.length ? srcset(url, wholeWidths) : null;
    const served = seatData && mine === null && closeSource !== null; // a seat's page keeps what it was served
    const close = served ? closeSource.getAttribute('srcset') // until its moves are known
      : closeSource !== null && !wantWhole && !choosing() ? srcset(boardUrl(n, true), closeWidths) : null;
    const same = img.src === new URL(url, location.href).href &&
      (set === null || resolved(img.getAttribute('srcset')) === resolved(set));
    if (same && (closeSource === null || resolved(closeSource.getAttribute('srcset')) === resolved(close))) return;
    tries = 0;
    if (closeSource !== null) {
      if (close === null) closeSource.removeAttribute('srcset');
      else closeSource.setAttribute('srcset', close);
    }
    if (set !== null) img.setAttribute('srcset', set);
    img.src = url;
  }

  function text(element, value) {
    element.textContent = value || '';
  }

  function show() {
    const n = shown();
    const moves = state.moves || 0;
    slider.max = String(moves);
    slider.value = String(n);
    slider.disabled = moves === 0;
    text($('mode'), at === null ? (state.live ? words.live : words.over) : fill(words.replay_step, { n: n, count: moves }));
    text($('position'), n === 0 ? words.start_position : fill(words.replay_step, { n: n, count: moves }));
    const url = boardUrl(n);
    if (url === null) {
      img.removeAttribute('src');
      img.alt = words.no_board;
      img.hidden = true;
    } else {
      img.hidden = false;
      picture(n, url); // the page names the newest board itself
      $('zoom').href = url;
      img.alt = n === 0 ? words.start_position : fill(closeShown() ? words.close_alt : words.board_alt, { n: n });
    }
    const whole = $('whole');
    whole.hidden = closeSource === null || url === null;
    whole.setAttribute('aria-pressed', String(wantWhole));
    text($('caption'), n === 0 ? (moves ? words.start_position : '') : log[n - 1] && log[n - 1].text);
    $('first').disabled = $('back').disabled = n === 0;
    $('forward').disabled = $('last').disabled = n >= moves;
    const live = $('live');
    live.hidden = at === null;
    text(live, state.live ? words.back_to_live : words.newest);
    text($('play'), playing ? '\u275A\u275A' : '\u25B6');
    $('play').title = playing ? words.pause : words.play;
    $('play').setAttribute('aria-label', $('play').title);
    $('play').disabled = moves === 0;
    let current = null; // the newest message written by the move shown
    for (const item of $('log').children) {
      item.removeAttribute('aria-current');
      if (current === null && Number(item.dataset.n) <= n) current = item;
    }
    if (current !== null) current.setAttribute('aria-current', 'step');
    for (const item of $('step-list').children) {
      if (Number(item.dataset.n) === n) item.setAttribute('aria-current', 'step');
      else item.removeAttribute('aria-current');
    }
    document.body.classList.toggle('replaying', at !== null);
    if (seatData && mine) img.classList.toggle('tappable', tappable());
  }

  function standings() {
    const table = $('standings');
    table.replaceChildren();
    const data = state.standings;
    if (!data) return;
    const headRow = table.createTHead().insertRow();
    for (const head of data.head) {
      const th = document.createElement('th');
      th.scope = 'col';
      text(th, head);
      headRow.appendChild(th);
    }
    const body = table.createTBody();
    for (const row of data.rows) {
      const tr = body.insertRow();
      if (row.won) tr.className = 'won';
      [row.place, ...row.cells].forEach((cell, i) => {
        const td = tr.insertCell();
        text(td, cell);
        if (i > 1 && data.head[i]) td.dataset.label = data.head[i]; // named on a phone, where the head is hidden
      });
    }
  }

  function entries() {
    const list = $('log');
    const items = [];
    for (let i = said.length - 1; i >= 0; i -= 1) {
      const entry = said[i];
      const li = document.createElement('li');
      li.dataset.n = String(entry.n);
      const button = document.createElement('button');
      button.type = 'button';
      text(button, entry.text);
      button.addEventListener('click', () => go(entry.n));
      li.appendChild(button);
      items.push(li);
    }
    list.replaceChildren(...items);
  }

  function steps() { // the replay's moves, each a button to its step: listed while the list is open
    const list = $('step-list');
    if (!$('steps').open) {
      list.replaceChildren();
      return;
    }
    const items = [];
    for (let n = 0; n <= (state.moves || 0); n += 1) {
      const li = document.createElement('li');
      li.dataset.n = String(n);
      const button = document.createElement('button');
      button.type = 'button';
      text(button, n === 0 ? words.start_position : fill(words.step_item, { n: n, text: (log[n - 1] && log[n - 1].text) || '' }));
      button.addEventListener('click', () => { stop(); go(n); });
      li.appendChild(button);
      items.push(li);
    }
    list.replaceChildren(...items);
  }

  function render() {
    text($('status'), state.status_text);
    text($('turn'), state.turn);
    text($('status-lines'), state.status_lines);
    standings();
    entries();
    steps();
    show();
  }

  function go(n) {
    const moves = state.moves || 0;
    at = n >= moves ? null : Math.max(0, n);
    show();
  }

  function stop() {
    if (playing) clearInterval(playing);
    playing = null;
  }

  function play() {
    if (playing) {
      stop();
      show();
      return;
    }
    if (at === null) at = 0;
    playing = setInterval(() => {
      if (at === null || at >= state.moves) {
        stop();
        at = null;
      } else {
        at += 1;
        if (at >= state.moves) at = null;
      }
      show();
    }, 900);
    show();
  }

  async function whole() {
    const answer = await fetch(base + '/state.json?lang=' + encodeURIComponent(lang), { cache: 'no-store' });
    if (!answer.ok) return;
    state = await answer.json();
    log = state.log || [];
    said = state.messages || [];
    render();
  }

  function joined(update) {
    const tail = update.tail || [];
    const first = tail.length ? tail[0].n : update.moves + 1;
    const before = first - 1;
    if (before > log.length) return false;
    if (before > 0 && (!log[before - 1] || log[before - 1].fp !== update.base)) return false;
    const from = update.said_from || 0;
    if (from > said.length || (from > 0 && said[from - 1].id !== update.said_before)) return false;
    log = log.slice(0, before).concat(tail);
    said = said.slice(0, from).concat(update.said || []);
    return true;
  }

  function heard(update) {
    if (update.start !== state.start && state.start !== null) {
      whole();
      return;
    }
    if (!joined(update)) {
      whole();
      return;
    }
    state = Object.assign({}, update, { log: log, messages: said });
    if (at !== null && at > state.moves) at = null;
    render();
    seatView();
  }

  // A seat's page ------------------------------------------------------------------------------------------

  const seatData = $('seat') ? JSON.parse($('seat').textContent) : null;
  let mine = null; // the seat's view: the game's version, its hidden things, its buttons and cells
  let sending = false;
  let asking = 0; // which read of the seat's view is the newest

  function note(value) {
    text($('seat-note'), value);
  }

  async function seatView() {
    if (!seatData) return;
    const asked = ++asking;
    let answer;
    try {
      answer = await fetch(base + '/seat.json?lang=' + encodeURIComponent(lang), { cache: 'no-store' });
    } catch (error) {
      return;
    }
    if (!answer.ok || asked !== asking) return;
    mine = await answer.json();
    seatRender();
  }

  function moveButton(label, action, style) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'move ' + (style || 'secondary');
    text(button, label);
    button.addEventListener('click', () => send(action, label));
    return button;
  }

  function choosing() { // the seat may tap a cell of the newest board: the whole board is shown
    return !!(mine && mine.to_act && !sending && at === null && mine.step === state.moves && mine.targets.length);
  }

  function tappable() {
    return choosing();
  }

  function seatRender() {
    text($('seat-hand'), mine.hand);
    $('seat-hand').hidden = !mine.hand;
    const acting = mine.to_act && !sending;
    $('seat-buttons').replaceChildren(...(acting ? mine.buttons : []).map((b) => moveButton(b.label, b.action, b.style)));
    const cells = acting ? mine.targets.map((t) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'cell';
      text(button, t.cell);
      button.setAttribute('aria-label', fill(words.seat_ways, { cell: t.cell }));
      button.addEventListener('click', () => openWays(t));
      return button;
    }) : [];
    $('seat-cells').replaceChildren(...cells);
    $('seat-hint').hidden = !cells.length;
    if (!acting) closeWays();
    if (!mine.to_act && !sending) note(state.live ? words.seat_wait : words.seat_over);
    else if ($('seat-note').textContent === words.seat_wait) note('');
    show(); // the picture: the whole board while a cell is to tap
  }

  function closeWays() {
    const ways = $('seat-ways');
    ways.replaceChildren();
    ways.hidden = true;
  }

  function openWays(target) {
    const ways = $('seat-ways');
    const heading = document.createElement('p');
    heading.className = 'ways-heading';
    text(heading, fill(words.seat_ways, { cell: target.cell }));
    const cancel = document.createElement('button');
    cancel.type = 'button';
    text(cancel, words.seat_cancel);
    cancel.addEventListener('click', closeWays);
    const buttons = target.ways.map((w) => moveButton(w.label, w.action, 'success'));
    ways.replaceChildren(heading, ...buttons, cancel);
    ways.hidden = false;
    ways.setAttribute('aria-label', heading.textContent);
    buttons[0].focus();
  }

  function targetAt(x, y) {
    let best = null;
    let distance = Infinity;
    for (const t of mine.targets) {
      const [x0, y0, x1, y1] = t.box;
      if (x < x0 || x > x1 || y < y0 || y > y1) continue;
      const d = Math.hypot(x - (x0 + x1) / 2, y - (y0 + y1) / 2); // boxes of neighbours overlap: the nearest centre
      if (d < distance) { best = t; distance = d; }
    }
    return best;
  }

  async function send(action, label) {
    if (!mine || sending) return;
    sending = true;
    seatRender();
    let done = false;
    try {
      const answer = await fetch(base + '/act?lang=' + encodeURIComponent(lang), {
        method: 'POST',
        cache: 'no-store',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-Junkyard-CSRF': seatData.csrf },
        body: JSON.stringify({ action: action, version: mine.version }),
      });
      const data = await answer.json().catch(() => null);
      done = !!(data && data.ok);
      note(done ? fill(words.seat_sent, { label: label }) : (data && data.error) || words.seat_failed);
    } catch (error) {
      note(words.seat_failed);
    }
    sending = false;
    if (done) {
      mine.to_act = false; // the live update brings the next state
      closeWays();
    }
    seatRender();
    seatView();
  }

  if (seatData) {
    img.addEventListener('click', (event) => {
      if (!tappable()) return;
      event.preventDefault(); // on a seat's page a tap on the live board picks a cell, it opens no picture
      const box = img.getBoundingClientRect();
      const [w, h] = mine.size || [img.naturalWidth, img.naturalHeight]; // the boxes are in the whole board's pixels
      const x = (event.clientX - box.left) * w / box.width;
      const y = (event.clientY - box.top) * h / box.height;
      const hit = targetAt(x, y);
      if (hit === null) note(words.seat_no_cell);
      else openWays(hit);
    });
  }

  let pause = 1000; // the wait before a new stream when the browser gave one up; it grows, a message resets it

  function listen() {
    if (!window.EventSource) return;
    const source = new EventSource(base + '/events?lang=' + encodeURIComponent(lang));
    source.onmessage = (event) => {
      pause = 1000;
      text($('status'), state.status_text);
      heard(JSON.parse(event.data));
      if (!state.live) source.close();
    };
    source.onerror = () => {
      if (!state.live) return;
      text($('status'), words.reconnecting);
      // the browser tries again by itself unless the answer was not a stream (a 429 or 503 over a cap): then we do,
      // later and later
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(listen, pause * (0.5 + Math.random())); // spread: a full server is not asked by all at once
        pause = Math.min(pause * 2, 60000);
      }
    };
  }

  // a picture refused (a 429 while stepping fast) is asked again a little later, twice at most
  img.addEventListener('load', () => { tries = 0; });
  img.addEventListener('error', () => {
    const url = img.getAttribute('src');
    const set = img.getAttribute('srcset');
    if (!url || tries >= 2) return;
    tries += 1;
    setTimeout(() => {
      if (img.getAttribute('src') !== url) return; // another board is shown by now
      img.removeAttribute('srcset');
      img.removeAttribute('src');
      if (set !== null) img.setAttribute('srcset', set);
      img.src = url;
    }, 1000 * tries);
  });

  $('whole').addEventListener('click', () => { wantWhole = !wantWhole; show(); });
  narrow.addEventListener('change', show);
  $('steps').addEventListener('toggle', () => { steps(); show(); });

  $('first').addEventListener('click', () => { stop(); go(0); });
  $('back').addEventListener('click', () => { stop(); go(shown() - 1); });
  $('forward').addEventListener('click', () => { stop(); go(shown() + 1); });
  $('last').addEventListener('click', () => { stop(); go(state.moves); });
  $('live').addEventListener('click', () => { stop(); go(state.moves); });
  $('play').addEventListener('click', play);
  slider.addEventListener('input', () => {
    stop();
    clearTimeout(slid);
    const n = Number(slider.value);
    slid = setTimeout(() => go(n), 60);
  });
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowLeft') { stop(); go(shown() - 1); event.preventDefault(); }
    if (event.key === 'ArrowRight') { stop(); go(shown() + 1); event.preventDefault(); }
    if (event.key === 'Home') { stop(); go(0); event.preventDefault(); }
    if (event.key === 'End') { stop(); go(state.moves); event.preventDefault(); }
  });

  render();
  seatView();
  if (state.live) listen();
})();
