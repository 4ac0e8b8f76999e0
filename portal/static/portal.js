// Reference portal scripts: confirmation dialogs and the availability grid.
(function () {
  "use strict";

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
    }
  });

  function toMin(hhmm) {
    var parts = hhmm.split(":");
    return parseInt(parts[0], 10) * 60 + parseInt(parts[1], 10);
  }

  function fmt(min) {
    var h = Math.floor(min / 60), m = min % 60;
    return (h < 10 ? "0" : "") + h + ":" + (m < 10 ? "0" : "") + m;
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function cellState(busy, start, end) {
    for (var i = 0; i < busy.length; i++) {
      if (toMin(busy[i].start) < end && toMin(busy[i].end) > start) {
        return busy[i].mine ? "mine" : "busy";
      }
    }
    return "free";
  }

  function build(box, data) {
    var d = box.dataset;
    var open = toMin(data.open), close = toMin(data.close), step = data.slot_minutes;
    var table = el("table", { "class": d.clsTable });
    table.appendChild(el("caption", {}, d.caption));
    var head = el("tr");
    head.appendChild(el("th", { scope: "col" }, "Аудитория"));
    for (var h = open; h < close; h += 60) {
      head.appendChild(el("th", { scope: "colgroup", colspan: String(60 / step) }, fmt(h)));
    }
    table.appendChild(el("thead")).appendChild(head);
    var body = table.appendChild(el("tbody"));
    var free = 0;
    data.rooms.forEach(function (room) {
      var row = el("tr", { "data-room": room.id });
      var th = el("th", { scope: "row" });
      th.appendChild(el("span", { "class": d.clsNum }, room.number));
      th.appendChild(el("span", { "class": d.clsMeta },
        room.floor + " этаж · " + room.capacity + " мест"));
      row.appendChild(th);
      for (var t = open; t < close; t += step) {
        var state = cellState(room.busy, t, t + step);
        var span = fmt(t) + "–" + fmt(t + step);
        var td = el("td", { "class": state === "free" ? d.clsFree : (state === "mine" ? d.clsMine : d.clsBusy) });
        if (state === "free" && (d.drift || "").split(" ").indexOf("free_marker") >= 0) {
          free++;  // drift: a button that goes to the form, the cell titled as busy ones are
          td.setAttribute("title", "Ауд. " + room.number + ", " + span + " — свободно");
          var go = el("button", { type: "button", "class": d.clsBtn }, "+");
          go.setAttribute("data-href", "/book?room=" + encodeURIComponent(room.id) + "&date=" +
            data.date + "&start=" + fmt(t) + "&end=" + fmt(t + step));
          go.addEventListener("click", function () { window.location.href = this.dataset.href; });
          td.appendChild(go);
        } else if (state === "free") {
          free++;
          td.appendChild(el("a", {
            href: "/book?room=" + encodeURIComponent(room.id) + "&date=" + data.date +
              "&start=" + fmt(t) + "&end=" + fmt(t + step),
            "aria-label": "Аудитория " + room.number + ", " + span + ", свободно",
            title: "Ауд. " + room.number + ", " + span + " — забронировать"
          }));
        } else {
          var label = state === "mine" ? "ваша бронь" : "занято";
          td.setAttribute("title", "Ауд. " + room.number + ", " + span + " — " + label);
          td.appendChild(el("span", { "class": "visually-hidden" }, label));
        }
        row.appendChild(td);
      }
      body.appendChild(row);
    });
    box.replaceChildren(table, el("p", { role: "status", "class": d.clsMuted },
      "Аудиторий: " + data.rooms.length + ", свободных интервалов: " + free + "."));
    box.setAttribute("aria-busy", "false");
    box.setAttribute("data-loaded", "true");
  }

  function fail(box, text) {
    var d = box.dataset;
    var alert = el("div", { role: "alert", "class": d.clsAlert }, text + " ");
    var retry = el("button", { type: "button", "class": d.clsBtn }, "Повторить");
    retry.addEventListener("click", function () { load(box); });
    alert.appendChild(retry);
    box.replaceChildren(alert);
    box.setAttribute("aria-busy", "false");
  }

  function load(box) {
    box.setAttribute("aria-busy", "true");
    fetch(box.dataset.api, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (resp) {
        if (resp.status === 401) {
          var back = window.location.pathname + window.location.search;
          window.location.href = "/login?expired=1&next=" + encodeURIComponent(back);
          return null;
        }
        if (!resp.ok) throw new Error("HTTP " + resp.status);
        return resp.json();
      })
      .then(function (data) { if (data) build(box, data); })
      .catch(function () { fail(box, "Не удалось загрузить расписание."); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-grid]").forEach(load);
  });
})();
