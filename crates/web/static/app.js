// Tabula's page script. Pages work without it; with it a game page follows
// the game live (Server-Sent Events), steps through the moves without
// reloading, pans and zooms big boards, and turns clicks on grid boards
// into coordinates in the move field. No framework, no build step.
"use strict";

(function () {
  // The texts this script shows, in the page's language: the server puts
  // them in the page (#texts), arguments as {name} for tr to fill in.
  var texts = {};
  try { texts = JSON.parse(document.getElementById("texts").textContent); } catch (e) { /* none: names show */ }
  function tr(name, args) {
    var text = texts[name] || name;
    Object.keys(args || {}).forEach(function (k) { text = text.split("{" + k + "}").join(String(args[k])); });
    return text;
  }
  // A time as the server writes it in the page's language (UTC, as every
  // player reads the same deadline).
  function formatTime(ms) {
    var d = new Date(ms);
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    var day = d.getUTCDate(), month = d.getUTCMonth() + 1, year = d.getUTCFullYear();
    var lang = document.documentElement.lang;
    if (lang === "fi") return day + "." + month + "." + year + " klo " + d.getUTCHours() + "." + two(d.getUTCMinutes()) + " UTC";
    if (lang === "es") return day + "/" + month + "/" + year + " " + d.getUTCHours() + ":" + two(d.getUTCMinutes()) + " UTC";
    return d.toISOString().slice(0, 16).replace("T", " ") + " UTC";
  }

  // Buttons that ask first (resigning).
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-confirm]");
    if (b && !window.confirm(b.getAttribute("data-confirm"))) e.preventDefault();
  });
  // A form is sent once; forms marked data-send are sent by fetch on a
  // game page (see sendForm below).
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (form.hasAttribute("data-send") && window.fetch && document.getElementById("game")) return;
    window.setTimeout(function () {
      form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
    }, 0);
  });

  // The count of games waiting for the reader, in the navigation and the
  // tab title: "(2) Games · Tabula".
  var navCount = document.getElementById("nav-count");
  function showWaiting(n, title) {
    if (navCount) {
      navCount.hidden = !n;
      navCount.firstChild.nodeValue = String(n);
    }
    document.title = (n ? "(" + n + ") " : "") + title;
  }

  // The games lists follow the games: the page fetches itself now and then
  // (while it is shown) and puts the new lists and count in place, leaving
  // the filter form as the reader left it.
  var lists = document.querySelectorAll("[data-live-list]");
  if (lists.length && window.fetch && window.DOMParser) {
    var refresh = function () {
      if (document.hidden) return;
      fetch(location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) return;
          var fresh = new DOMParser().parseFromString(html, "text/html");
          lists.forEach(function (el) {
            var now = fresh.getElementById(el.id);
            if (now && now.innerHTML !== el.innerHTML) el.innerHTML = now.innerHTML;
          });
          var count = fresh.getElementById("nav-count");
          if (count && navCount) navCount.parentNode.replaceChild(document.importNode(count, true), navCount);
          navCount = document.getElementById("nav-count");
          document.title = fresh.title;
        })
        .catch(function () { /* the next round tries again */ });
    };
    window.setInterval(refresh, 4000);
    document.addEventListener("visibilitychange", refresh);
  }

  var game = document.getElementById("game");
  if (!game) return;

  var boardBox = document.getElementById("board");
  var me = game.getAttribute("data-me") || "";
  var api = game.getAttribute("data-api");
  var colours = JSON.parse(game.getAttribute("data-colours") || "[]");
  var status = game.getAttribute("data-status");
  var total = Number(game.getAttribute("data-total"));
  var position = Number(game.getAttribute("data-position"));
  var latest = null; // the newest snapshot received live
  var clickMap = parseJson(boardBox.getAttribute("data-click"));
  var actions = parseJson(game.getAttribute("data-actions")) || {};
  var pageTitle = game.getAttribute("data-title") || document.title;
  var waiting = navCount && !navCount.hidden ? Number(navCount.firstChild.nodeValue) || 0 : 0;
  var moveForm = document.getElementById("move-form");
  var moveText = document.getElementById("move-text");
  var guard = document.getElementById("moveno");

  function parseJson(text) {
    try { return JSON.parse(text); } catch (e) { return null; }
  }

  // ------------------------------------------------------------ pan and zoom

  var home = null; // the picture's own viewBox
  var view = null; // the part shown now

  function svg() { return boardBox.querySelector("svg"); }

  // On a phone (or any touch screen) a picture is never shown so small
  // that a cell is under 24 px or a letter under 12 px: past that, the
  // board shows a window of the picture that pans, as big boards do when
  // zoomed.
  var touch = window.matchMedia && window.matchMedia("(max-width: 600px), (pointer: coarse)").matches;
  var widest = null; // the largest view, in picture units, at a readable size

  function readableScale(s) {
    if (!touch) return 0;
    // A hair over the limits, so that rounding never lands under them.
    var need = clickMap && clickMap.cell ? 24.1 / clickMap.cell : 0;
    var smallest = Infinity;
    s.querySelectorAll("text").forEach(function (t) {
      var size = parseFloat(t.getAttribute("font-size") || window.getComputedStyle(t).fontSize);
      if (size > 0 && size < smallest) smallest = size;
    });
    return smallest < Infinity ? Math.max(need, 12.05 / smallest) : need;
  }

  function initialView() {
    if (widest[0] >= home[2] && widest[1] >= home[3]) return home.slice();
    // The middle of the picture: the server centres a field on its cells.
    return [home[0] + (home[2] - widest[0]) / 2, home[1] + (home[3] - widest[1]) / 2, widest[0], widest[1]];
  }

  function setUpPicture(keepView) {
    var s = svg();
    if (!s || !s.viewBox || !s.viewBox.baseVal) return;
    var vb = s.viewBox.baseVal;
    // A picture set up before (the window was resized) keeps its own size.
    var fresh = s.hasAttribute("width") || !home;
    var h = fresh ? [vb.x, vb.y, vb.width, vb.height] : home;
    var width = fresh ? Number(s.getAttribute("width")) || vb.width : home[2];
    // Scale to the page; small pictures may grow a little, big ones
    // shrink to fit (and can be zoomed).
    s.removeAttribute("width");
    s.removeAttribute("height");
    var same = home && home[2] === h[2] && home[3] === h[3];
    home = h;
    var largest = Math.max(width, Math.min(width * 1.5, 640));
    var boxWidth = boardBox.clientWidth || largest;
    var least = readableScale(s);
    if (least > Math.min(boxWidth, largest) / home[2]) {
      s.style.maxWidth = "none";
      widest = [Math.min(home[2], boxWidth / least), Math.min(home[3], (window.innerHeight * 0.7) / least)];
    } else {
      s.style.maxWidth = largest + "px";
      widest = [home[2], home[3]];
    }
    if (!(keepView && same && view)) view = initialView();
    apply();
  }

  function apply() {
    var s = svg();
    if (!s || !view) return;
    s.setAttribute("viewBox", view.join(" "));
    boardBox.classList.toggle("zoomed", view[2] < home[2] - 1e-6 || view[3] < home[3] - 1e-6);
  }

  function clampView() {
    var w = Math.min(view[2], home[2]), h = Math.min(view[3], home[3]);
    var x = Math.max(home[0], Math.min(view[0], home[0] + home[2] - w));
    var y = Math.max(home[1], Math.min(view[1], home[1] + home[3] - h));
    view = [x, y, w, h];
  }

  function zoom(factor, cx, cy) {
    if (!view) return;
    var w = view[2], h = view[3];
    var nw = Math.max(home[2] / 40, Math.min(widest[0], w / factor));
    var nh = Math.min(widest[1] * nw / widest[0], nw * h / w);
    if (cx === undefined) { cx = view[0] + w / 2; cy = view[1] + h / 2; }
    view = [cx - (cx - view[0]) * nw / w, cy - (cy - view[1]) * nh / h, nw, nh];
    clampView();
    apply();
  }

  var shownWidth = window.innerWidth;
  window.addEventListener("resize", function () {
    // Phones resize as their address bar comes and goes: only a new width counts.
    if (window.innerWidth === shownWidth) return;
    shownWidth = window.innerWidth;
    setUpPicture(false);
  });

  // A point of the screen in the picture's own units (whatever the zoom).
  function toPicture(clientX, clientY) {
    var s = svg();
    var m = s && s.getScreenCTM();
    if (!m) return null;
    var p = s.createSVGPoint();
    p.x = clientX;
    p.y = clientY;
    return p.matrixTransform(m.inverse());
  }

  document.querySelectorAll("[data-zoom]").forEach(function (b) {
    b.addEventListener("click", function () {
      var what = b.getAttribute("data-zoom");
      if (what === "in") zoom(1.5);
      else if (what === "out") zoom(1 / 1.5);
      else if (home) { view = initialView(); apply(); }
    });
  });

  var grid = boardBox.classList.contains("grid");
  boardBox.addEventListener("wheel", function (e) {
    if (!grid && !e.ctrlKey) return;
    var p = toPicture(e.clientX, e.clientY);
    if (!p) return;
    e.preventDefault();
    zoom(e.deltaY < 0 ? 1.25 : 1 / 1.25, p.x, p.y);
  }, { passive: false });

  var pointers = new Map();
  var drag = null;

  boardBox.addEventListener("pointerdown", function (e) {
    if (e.button !== 0 || !view) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    var s = svg();
    var m = s && s.getScreenCTM();
    if (!m) return;
    drag = { x: e.clientX, y: e.clientY, view: view.slice(), scale: m.a, moved: false, pinch: null };
    if (pointers.size === 2) {
      var pts = Array.from(pointers.values());
      drag.pinch = { distance: Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y), view: view.slice() };
      drag.moved = true;
    }
    boardBox.setPointerCapture(e.pointerId);
  });

  boardBox.addEventListener("pointermove", function (e) {
    if (!drag || !pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (drag.pinch && pointers.size === 2) {
      var pts = Array.from(pointers.values());
      var d = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y);
      var mid = toPicture((pts[0].x + pts[1].x) / 2, (pts[0].y + pts[1].y) / 2);
      if (d > 0 && mid) {
        view = drag.pinch.view.slice();
        zoom(d / drag.pinch.distance, mid.x, mid.y);
      }
      return;
    }
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 5) return;
    drag.moved = true;
    if (view[2] >= home[2] - 1e-6 && view[3] >= home[3] - 1e-6) return; // nothing to pan at the whole-board view
    view = [drag.view[0] - dx / drag.scale, drag.view[1] - dy / drag.scale, drag.view[2], drag.view[3]];
    clampView();
    apply();
  });

  function endPointer(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    if (drag && pointers.size === 0) {
      if (!drag.moved && e.type === "pointerup") clickAt(e.clientX, e.clientY);
      drag = null;
    }
  }
  boardBox.addEventListener("pointerup", endPointer);
  boardBox.addEventListener("pointercancel", endPointer);

  // ------------------------------------------------------------ clicks to moves

  function columnName(index) {
    var n = index + 1, out = "";
    while (n > 0) {
      n -= 1;
      out = String.fromCharCode(97 + (n % 26)) + out;
      n = Math.floor(n / 26);
    }
    return out;
  }

  function columnIndex(letters) {
    var n = 0;
    for (var i = 0; i < letters.length; i++) n = n * 26 + (letters.charCodeAt(i) - 96);
    return n - 1;
  }

  // The same arithmetic as boards.rs `ClickMap::label_at`.
  function labelAt(map, x, y) {
    if (map.type === "field") {
      var fc = Math.floor((x - map.x0) / map.cell), fr = Math.floor((y - map.y0) / map.cell);
      if (fc < 0 || fr < 0 || fc >= map.columns || fr >= map.rows) return null;
      var gx = map.left + fc, gy = map.top - fr;
      if (map.plane) return "(" + gx + "," + gy + ")";
      return gx >= 0 ? columnName(gx) + String(gy + 1) : null;
    }
    if (map.type === "grid") {
      var col = Math.floor((x - map.x0) / map.cell), row = Math.floor((y - map.y0) / map.cell);
      if (col < 0 || row < 0 || col >= map.columns || row >= map.rows) return null;
      return columnName(col) + String(map.rows - row);
    }
    if (map.type === "strip") {
      var c = Math.floor((x - map.x0) / map.cell), r = Math.floor((y - map.y0) / map.row_height);
      if (c < 0 || r < 0 || c >= map.per_row || y - map.y0 - r * map.row_height >= map.cell) return null;
      var index = r * map.per_row + c;
      return index < map.count ? String(index + 1) : null;
    }
    return null;
  }

  // Where the cell named `label` is drawn: [x, y, side].
  function cellBox(map, label) {
    if (map.type === "field") {
      var gx, gy, fm;
      if ((fm = /^\((-?\d+),(-?\d+)\)$/.exec(label))) { gx = Number(fm[1]); gy = Number(fm[2]); }
      else if ((fm = /^([a-z]+)(\d+)$/.exec(label))) { gx = columnIndex(fm[1]); gy = Number(fm[2]) - 1; }
      else return null;
      var c = gx - map.left, r = map.top - gy;
      if (c < 0 || r < 0 || c >= map.columns || r >= map.rows) return null;
      return [map.x0 + c * map.cell, map.y0 + r * map.cell, map.cell];
    }
    if (map.type === "grid") {
      var m = /^([a-z]+)(\d+)$/.exec(label);
      if (!m) return null;
      var col = columnIndex(m[1]), row = map.rows - Number(m[2]);
      if (col < 0 || col >= map.columns || row < 0 || row >= map.rows) return null;
      return [map.x0 + col * map.cell, map.y0 + row * map.cell, map.cell];
    }
    if (map.type === "strip") {
      var i = Number(label) - 1;
      if (!(i >= 0 && i < map.count)) return null;
      return [map.x0 + (i % map.per_row) * map.cell, map.y0 + Math.floor(i / map.per_row) * map.row_height, map.cell];
    }
    return null;
  }

  function chosenLabels() {
    if (!moveText) return [];
    if (clickMap && clickMap.type === "field") {
      return moveText.value.toLowerCase().match(/\(-?\d+,-?\d+\)|[a-z]+\d+/g) || [];
    }
    return moveText.value.toLowerCase().split(/[\s,]+/).filter(function (w) { return w; });
  }

  // Real-Time Life: a first placement lists cells (`place a1,b1,c1`);
  // later clicks go in pairs, a cell and where it goes (`move a1-c3,b1-d2`).
  function fieldClick(label) {
    var chosen = chosenLabels();
    if (clickMap.placing.indexOf(me) >= 0 || actions.join) {
      var at = chosen.indexOf(label);
      if (at >= 0) chosen.splice(at, 1);
      else {
        chosen.push(label);
        while (chosen.length > clickMap.start_cells) chosen.shift();
      }
      moveText.value = chosen.length ? "place " + chosen.join(",") : "";
      return;
    }
    if (chosen.length % 2 === 1 && chosen[chosen.length - 1] === label) chosen.pop();
    else chosen.push(label);
    var pairs = [];
    for (var i = 0; i < chosen.length; i += 2) pairs.push(chosen[i] + "-" + (chosen[i + 1] || ""));
    moveText.value = pairs.length ? "move " + pairs.join(",") : "";
  }

  function clickAt(clientX, clientY) {
    if (!clickMap || !moveForm || moveForm.hidden || !moveText) return;
    var p = toPicture(clientX, clientY);
    var label = p && labelAt(clickMap, p.x, p.y);
    if (!label) return;
    if (clickMap.type === "field") {
      fieldClick(label);
    } else if (clickMap.type === "grid") {
      var chosen = chosenLabels().filter(function (w) { return cellBox(clickMap, w); });
      var at = chosen.indexOf(label);
      if (at >= 0) chosen.splice(at, 1);
      else {
        chosen.push(label);
        while (chosen.length > (clickMap.max || 1)) chosen.shift();
      }
      moveText.value = chosen.join(",");
    } else {
      moveText.value = label;
    }
    drawMarks();
  }

  var SVG_NS = "http://www.w3.org/2000/svg";
  function drawMarks() {
    var s = svg();
    if (!s) return;
    var old = s.querySelector("#click-marks");
    if (old) old.remove();
    if (!clickMap || !moveForm || moveForm.hidden) return;
    var g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("id", "click-marks");
    g.setAttribute("pointer-events", "none");
    chosenLabels().forEach(function (label) {
      var box = cellBox(clickMap, label);
      if (!box) return;
      var r = document.createElementNS(SVG_NS, "rect");
      r.setAttribute("x", box[0] + 1);
      r.setAttribute("y", box[1] + 1);
      r.setAttribute("width", Math.max(box[2] - 2, 1));
      r.setAttribute("height", Math.max(box[2] - 2, 1));
      r.setAttribute("fill", "none");
      r.setAttribute("stroke", "#111111");
      r.setAttribute("stroke-width", Math.max(box[2] / 8, 1));
      r.setAttribute("class", "mark");
      g.appendChild(r);
    });
    s.appendChild(g);
  }
  if (moveText) moveText.addEventListener("input", drawMarks);

  // ------------------------------------------------------------ showing a snapshot

  // The status lines that open a board's text: a past position's, read
  // from the API, which are shown as an observer saw them.
  function statusLines(text) {
    var lines = [];
    var all = text.split("\n");
    for (var i = 0; i < all.length && all[i].trim() !== ""; i++) lines.push(all[i]);
    return lines;
  }

  function showPicture(snapshot) {
    boardBox.innerHTML = snapshot.svg;
    clickMap = snapshot.click;
    setUpPicture(true);
    var st = document.getElementById("status");
    st.textContent = "";
    // The live stream's are addressed to the listener by the server.
    (snapshot.status_lines || statusLines(snapshot.text)).forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      st.appendChild(p);
    });
    var tb = document.getElementById("text-board");
    if (tb) tb.textContent = snapshot.text;
    drawMarks();
    showChanges(snapshot);
  }

  // ------------------------------------------------------------ what the last move changed

  // Conway and Real-Time Life: the points whose contents differ from the
  // position one move earlier are outlined, so a move and the generations
  // it brought are seen at a glance.
  var changeRequest = 0;

  // A view's occupied points: "x,y" (column and row from the top on a
  // grid; game coordinates on a field) to the character drawn there.
  function pointsOf(view) {
    var out = {};
    if (!view || !view.rows) return out;
    var w = view.window;
    view.rows.forEach(function (line, r) {
      for (var c = 0; c < line.length; c++) {
        var ch = line.charAt(c);
        if (ch !== ".") out[w ? (w.left + c) + "," + (w.top - r) : c + "," + r] = ch;
      }
    });
    return out;
  }

  function changedBoxes(before, after) {
    var a = pointsOf(before), b = pointsOf(after), boxes = [];
    var keys = Object.keys(a).concat(Object.keys(b).filter(function (k) { return !(k in a); }));
    keys.forEach(function (k) {
      if (a[k] === b[k]) return;
      var p = k.split(","), col = Number(p[0]), row = Number(p[1]);
      if (clickMap.type === "field") { col -= clickMap.left; row = clickMap.top - row; }
      var columns = clickMap.columns, rows = clickMap.rows;
      if (col < 0 || row < 0 || col >= columns || row >= rows) return;
      boxes.push([clickMap.x0 + col * clickMap.cell, clickMap.y0 + row * clickMap.cell, clickMap.cell]);
    });
    return boxes;
  }

  function drawChanges(boxes) {
    var s = svg();
    if (!s) return;
    var old = s.querySelector("#change-marks");
    if (old) old.remove();
    var g = document.createElementNS(SVG_NS, "g");
    g.setAttribute("id", "change-marks");
    g.setAttribute("pointer-events", "none");
    boxes.forEach(function (b) {
      var r = document.createElementNS(SVG_NS, "rect");
      var w = Math.max(b[2] / 10, 1);
      r.setAttribute("x", b[0] + w / 2);
      r.setAttribute("y", b[1] + w / 2);
      r.setAttribute("width", Math.max(b[2] - w, 1));
      r.setAttribute("height", Math.max(b[2] - w, 1));
      r.setAttribute("fill", "none");
      r.setAttribute("stroke", "#e69f00");
      r.setAttribute("stroke-width", w);
      r.setAttribute("stroke-dasharray", String(w * 2));
      r.setAttribute("class", "change");
      g.appendChild(r);
    });
    var marks = s.querySelector("#click-marks");
    if (marks) s.insertBefore(g, marks); else s.appendChild(g);
  }

  // `shown`: the snapshot whose board was just drawn, when there is one (its
  // view is the "after"; only the position before it is read).
  function showChanges(shown) {
    // Boards of points (grids and fields) outline what a move changed.
    if (!clickMap || (clickMap.type !== "grid" && clickMap.type !== "field") || position < 1 || !window.fetch) return;
    var mine = ++changeRequest, at = position;
    var after = shown && shown.game && shown.game.view ? Promise.resolve(shown) : readAt(at, "change-after");
    Promise.all([readAt(at - 1, "change-before"), after]).then(function (both) {
      if (mine !== changeRequest || at !== position || !both[0].ok || !both[1].ok) return;
      drawChanges(changedBoxes(both[0].game.view, both[1].game.view));
    }).catch(function () { /* no outline: the board is right anyway */ });
  }

  // Past positions are read one at a time: the server prepares at most two
  // replays per reader at once and refuses more, so the page never has a
  // second read on the way. A newer wish of the same `purpose` replaces
  // one still waiting (quick key presses read only the newest step).
  var reading = false;
  var waitingReads = [];
  function readAt(n, purpose) {
    return new Promise(function (resolve, reject) {
      waitingReads = waitingReads.filter(function (w) {
        if (w.purpose !== purpose) return true;
        w.reject("superseded");
        return false;
      });
      waitingReads.push({ n: n, purpose: purpose, resolve: resolve, reject: reject });
      nextRead();
    });
  }
  function nextRead() {
    if (reading || !waitingReads.length) return;
    var w = waitingReads.shift();
    reading = true;
    var finish = function (settle, value) {
      reading = false;
      nextRead();
      settle(value);
    };
    fetch(w.n >= total ? api : api + "?at=" + w.n, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (body) { finish(w.resolve, body); }, function (e) { finish(w.reject, e); });
  }

  // The player whose turn it is, in a turn-based game.
  function myTurn(g) {
    return g.status === "active" && me !== "" && g.to_move.indexOf(me) >= 0;
  }

  // What the reader may do now (the live stream's `state.actions`): the
  // forms and buttons that fit, no more.
  function showActions(a, offer) {
    actions = a || {};
    if (moveForm) {
      var show = !!actions.play && position >= total;
      if (moveForm.hidden === show) {
        moveForm.hidden = !show;
        var err = document.getElementById("move-error");
        if (err && !show) err.remove();
      }
      var label = document.getElementById("move-label");
      if (label) {
        label.textContent = label.getAttribute(actions.join ? "data-join" : actions.replace ? "data-replace" : "data-play");
      }
    }
    var controls = document.getElementById("controls");
    if (controls) {
      controls.hidden = !(actions.resign || actions.answer_offer);
      controls.querySelectorAll("[data-action]").forEach(function (el) {
        el.hidden = !actions[el.getAttribute("data-action")];
      });
      var offerText = document.getElementById("offer-text");
      if (offerText) {
        offerText.textContent = offer ? tr(offer.kind === "draw" ? "offer-draw" : "offer-undo", { user: offer.by }) : "";
      }
    }
    var rematch = document.getElementById("rematch");
    if (rematch) rematch.hidden = !actions.rematch;
  }

  function showState(g) {
    document.querySelectorAll("#players li[data-player]").forEach(function (li) {
      var to = g.status === "active" && g.to_move.indexOf(li.getAttribute("data-player")) >= 0;
      li.classList.toggle("to-move", to);
      var mark = li.querySelector(".turn-mark");
      if (mark) mark.textContent = to ? tr("to-move") : "";
    });
    if (moveForm) {
      moveForm.hidden = !(actions.play && position >= total);
      // As on the server: a guard only while one player is to move.
      if (guard) guard.value = g.to_move.length === 1 ? String(g.moves + 1) : "";
    }
    showWaiting(waiting, (myTurn(g) && actions.play ? tr("your-turn") + " · " : "") + pageTitle + " · Tabula");
  }

  var players = [];
  document.querySelectorAll("#players li[data-player]").forEach(function (li) { players.push(li.getAttribute("data-player")); });

  function showMoves(history) {
    var list = document.getElementById("moves");
    list.textContent = "";
    history.forEach(function (h) {
      var li = document.createElement("li");
      li.setAttribute("data-number", h.number);
      if (h.opens && h.undone) li.className = "undone";
      var a = document.createElement("a");
      a.href = "?at=" + h.number;
      a.setAttribute("data-at", String(h.number));
      var no = document.createElement("span");
      no.className = "no";
      // As in the text move list: a move's number on its first line, none
      // on a move taken back (the move made instead carries it).
      no.textContent = h.opens && !h.undone ? h.number + "." : "";
      a.appendChild(no);
      a.appendChild(document.createTextNode(" "));
      if (h.entry.seat !== null && h.entry.seat !== undefined) {
        var sw = document.createElement("span");
        sw.className = "swatch small";
        sw.style.background = colours[h.entry.seat % colours.length] || "#444";
        a.appendChild(sw);
        var who = document.createElement("span");
        who.className = "who";
        who.textContent = players[h.entry.seat] || "";
        a.appendChild(who);
        a.appendChild(document.createTextNode(" "));
      }
      var t = document.createElement("span");
      t.className = "text";
      t.textContent = h.entry.text;
      a.appendChild(t);
      if (h.opens && h.undone) a.appendChild(document.createTextNode(" " + tr("taken-back")));
      li.appendChild(a);
      list.appendChild(li);
    });
    if (!history.length) {
      var empty = document.createElement("li");
      empty.className = "empty muted";
      empty.textContent = tr("no-moves");
      list.appendChild(empty);
    }
    markPosition();
  }

  function markPosition() {
    document.querySelectorAll("#moves li[data-number]").forEach(function (li) {
      li.classList.toggle("later", Number(li.getAttribute("data-number")) > position);
    });
    var label = document.getElementById("position");
    label.textContent = position >= total
      ? tr("position-latest", { total: total })
      : tr("position-after", { position: position, total: total });
    var prev = document.querySelector('#replay [data-at="prev"]');
    var next = document.querySelector('#replay [data-at="next"]');
    if (prev) prev.href = "?at=" + Math.max(position - 1, 0);
    if (next) next.href = "?at=" + Math.min(position + 1, total);
  }

  // ------------------------------------------------------------ the clock

  // Games on a clock (Real-Time Life): the seconds to the next tick, from
  // the view's own `now` and `next_tick`, so a wrong clock here is no matter.
  var countdown = document.getElementById("countdown");
  var nextAt = null; // the next tick, in this browser's clock
  function setClock(view) {
    var next = view ? view.next_tick : Number(countdown.getAttribute("data-next"));
    var now = view ? view.now : Number(countdown.getAttribute("data-now"));
    nextAt = next && now ? Date.now() + (next - now) : null;
    tick();
  }
  function tick() {
    if (!countdown) return;
    countdown.hidden = nextAt === null || position < total;
    if (nextAt === null) return;
    var s = Math.max(0, Math.ceil((nextAt - Date.now()) / 1000));
    countdown.textContent = s > 0 ? tr("tick-in", { seconds: s }) : tr("tick-now");
  }
  if (countdown) {
    setClock(null);
    window.setInterval(tick, 1000);
  }

  // ------------------------------------------------------------ replay

  var request = 0;
  var shownRequest = 0; // the newest request whose board is shown
  // Where the newest step goes while its board is on the way: a second
  // key press steps on from there, so quick presses skip no move. Each
  // step's board is shown as it comes, unless a later one came first.
  var heading = null;
  function step(by) { goTo((heading !== null ? heading : position) + by); }
  function goTo(n, retry) {
    n = Math.max(0, Math.min(n, total));
    var mine = ++request;
    heading = n;
    var failed = function (why) {
      if (mine !== request || why === "superseded") return;
      // The newest step is the one the reader waits for: one more try.
      if (!retry) window.setTimeout(function () { if (mine === request) goTo(n, true); }, 200);
      else heading = null;
    };
    var done = function (snapshot) {
      if (mine < shownRequest) return;
      shownRequest = mine;
      if (mine === request) heading = null;
      position = n >= total ? total : n;
      showPicture(snapshot);
      showState(snapshot.game);
      markPosition();
      history.replaceState(null, "", n >= total ? location.pathname : "?at=" + n);
    };
    if (n >= total && latest) { done(latest); return; }
    readAt(n, "step").then(function (body) { if (body.ok) done(body); else failed(); }, failed);
  }

  document.getElementById("replay").addEventListener("click", replayClick);
  document.getElementById("moves").addEventListener("click", replayClick);
  function replayClick(e) {
    var a = e.target.closest("[data-at]");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    var at = a.getAttribute("data-at");
    if (at === "prev") step(-1);
    else if (at === "next") step(1);
    else if (at === "latest") goTo(total);
    else goTo(Number(at));
  }
  document.addEventListener("keydown", function (e) {
    var tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
  });

  // ------------------------------------------------------------ live updates

  var live = document.getElementById("live");
  var liveOpen = false;
  function onSnapshot(ev) {
    var snapshot = parseJson(ev.data);
    if (!snapshot || !snapshot.game) return;
    var g = snapshot.game;
    if (status === "proposed" && g.status !== "proposed") {
      // The challenge was answered: the page's forms change, so reload it.
      window.location.reload();
      return;
    }
    status = g.status;
    if (g.players.length !== players.length) players = g.players.slice();
    var wasLatest = position >= total;
    latest = snapshot;
    total = g.moves;
    if (wasLatest) {
      position = total;
      showPicture(snapshot);
    }
    if (countdown && g.view) setClock(g.view);
    if (snapshot.state) showActions(snapshot.state.actions, snapshot.state.offer);
    if (typeof snapshot.waiting === "number") waiting = snapshot.waiting;
    game.setAttribute("data-version", String(g.version));
    showState(g);
    showMoves(g.history);

  }

  // Chat lines arrive numbered; the page has the first `chatCount` already.
  var chatCount = Number(game.getAttribute("data-chat") || "0");
  function onChat(ev) {
    var line = parseJson(ev.data);
    if (!line || line.n < chatCount) return;
    chatCount = line.n + 1;
    var list = document.getElementById("chat-lines");
    if (!list) return;
    var empty = list.querySelector(".empty");
    if (empty) empty.remove();
    var li = document.createElement("li");
    if (line.user === me) li.className = "mine";
    var who = document.createElement("span");
    who.className = "who";
    who.textContent = line.user;
    var when = document.createElement("span");
    when.className = "when";
    when.textContent = formatTime(line.at);
    var text = document.createElement("span");
    text.className = "text";
    text.textContent = line.text;
    li.appendChild(who);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(when);
    li.appendChild(text);
    list.appendChild(li);
    list.scrollTop = list.scrollHeight;
  }

  if (window.EventSource && game.getAttribute("data-events")) {
    var source = new EventSource(game.getAttribute("data-events") + "?chat=" + chatCount);
    source.addEventListener("snapshot", onSnapshot);
    source.addEventListener("chat", onChat);
    source.onopen = function () {
      liveOpen = true;
      live.hidden = false;
      live.textContent = tr("live");
      live.classList.remove("offline");
    };
    source.onerror = function () {
      liveOpen = false;
      live.hidden = false;
      live.textContent = tr("reconnecting");
      live.classList.add("offline");
    };
  }

  // ------------------------------------------------------------ sending without reloading

  // A form's error, shown in place: the move's and the chat's where the
  // page shows them, the others' at the end of their form.
  function errorBox(form, create) {
    var id = form.id === "chat-form" ? "chat-error" : form.id === "move-form" ? "move-error" : form.id + "-error";
    var p = document.getElementById(id);
    if (!p && create) {
      p = document.createElement("p");
      p.className = "error";
      p.setAttribute("role", "alert");
      p.id = id;
      if (form.id === "chat-form") form.parentNode.insertBefore(p, form.nextSibling);
      else if (form.id === "move-form") form.insertBefore(p, form.querySelector(".move-help"));
      else form.appendChild(p);
    }
    return p;
  }

  // Send a form with fetch: the answer is only "taken" or the error; what
  // changed arrives through the live stream. Inputs are kept on an error.
  function sendForm(form, submitter) {
    var body = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) body.set(submitter.name, submitter.value);
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    var done = function (answer) {
      buttons.forEach(function (b) { b.disabled = false; });
      if (answer.ok) {
        var old = errorBox(form, false);
        if (old) old.remove();
        var isMove = form.id === "move-form";
        if (isMove && moveText) { moveText.value = ""; drawMarks(); }
        if (form.id === "chat-form") form.querySelector('input[name="text"]').value = "";
        // Without the live stream nothing would show the change: reload.
        if (!liveOpen) window.location.reload();
      } else {
        var message = answer.error && answer.error.message ? answer.error.message : tr("refused");
        errorBox(form, true).textContent = message.charAt(0).toUpperCase() + message.slice(1);
      }
    };
    // getAttribute: a field named "action" hides the form's own property.
    fetch(form.getAttribute("action"), { method: "POST", credentials: "same-origin", headers: { Accept: "application/json" }, body: body })
      .then(function (r) {
        return r.json().catch(function () { return { ok: false, error: { message: tr("status", { status: r.status }) } }; });
      })
      .then(done)
      .catch(function () { done({ ok: false, error: { message: tr("not-sent") } }); });
  }

  document.querySelectorAll("form[data-send]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      if (!window.fetch) return;
      e.preventDefault();
      sendForm(form, e.submitter);
    });
  });

  setUpPicture(false);
  drawMarks();
  showChanges();
})();