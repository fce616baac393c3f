// Public pages: the round clock counts on between polls, and the beamer shows its pages in turn.
// htmx (static/vendor/htmx) does the polling; this file only animates what the server sent.
(function () {
  "use strict";

  function two(n) { return String(n).padStart(2, "0"); }

  function format(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return (h ? h + ":" + two(m) : String(m)) + ":" + two(s % 60);
  }

  // The server says how many seconds were left when it answered; count from the moment it arrived,
  // so a wrong clock on the phone does not matter.
  const arrived = new WeakMap();

  function tick() {
    document.querySelectorAll("[data-clock]").forEach(function (clock) {
      if (!arrived.has(clock)) arrived.set(clock, performance.now());
      const running = clock.dataset.status === "running";
      const passed = running ? (performance.now() - arrived.get(clock)) / 1000 : 0;
      const time = clock.querySelector("[data-clock-time]");
      if (clock.dataset.remaining === "") {
        time.textContent = format(Number(clock.dataset.elapsed) + passed);
        return;
      }
      const left = Number(clock.dataset.remaining) - passed;
      time.textContent = format(left);
      if (left <= 0 && clock.dataset.status !== "idle" && !clock.classList.contains("time-up")) {
        const label = clock.querySelector("[data-clock-label]");
        clock.classList.add("time-up");
        label.textContent = label.dataset.timeUp;
      }
    });
  }

  // --- the beamer's pages --------------------------------------------------------------------------
  let slide = 0;

  function showSlide() {
    const slides = document.querySelectorAll("[data-slide]");
    if (!slides.length) return;
    slide = slide % slides.length;
    slides.forEach(function (el, i) { el.hidden = i !== slide; });
    fit(slides[slide]);
  }

  // A page longer than the screen (long team names, a big pool) gets smaller type instead of being cut off.
  function fit(el) {
    const room = el.parentElement.clientHeight;
    let size = 1;
    el.style.fontSize = "";
    while (el.scrollHeight > room && size > 0.6) {
      size -= 0.05;
      el.style.fontSize = size + "em";
    }
  }

  function nextSlide() {
    slide += 1;
    showSlide();
    const live = document.getElementById("live");
    const seconds = Number(live && live.dataset.beamerSeconds) || 15;
    window.setTimeout(nextSlide, seconds * 1000);
  }

  // The time as the language's own format writes it (Django's TIME_FORMAT, given by the page), with seconds:
  // 12-hour "7:05:09 p.m." where it has a.m./p.m. (English), else 24-hour "19:05:09" (German, Danish).
  // The time on the venue's clocks (the tournament's time zone), whatever the phone's own zone: a visitor
  // abroad reads the hall's time, as on every other page and printout. Without a zone: the phone's time.
  function venueClock(now, timeZone) {
    if (timeZone) {
      try {
        const parts = {};
        new Intl.DateTimeFormat("en-GB", { timeZone: timeZone, hour: "numeric", minute: "numeric",
                                           second: "numeric", hourCycle: "h23" })
          .formatToParts(now).forEach(function (part) { parts[part.type] = Number(part.value); });
        return { h: parts.hour % 24, m: parts.minute, s: parts.second };
      } catch (error) { /* an unknown zone: the phone's time */ }
    }
    return { h: now.getHours(), m: now.getMinutes(), s: now.getSeconds() };
  }

  function clockTime(now, timeFormat, timeZone) {
    const clock = venueClock(now, timeZone);
    const h = clock.h, rest = ":" + two(clock.m) + ":" + two(clock.s);
    if (/[PAag]/.test(timeFormat)) return (h % 12 || 12) + rest + (h < 12 ? " a.m." : " p.m.");
    return two(h) + rest;
  }

  function checked() {
    const el = document.querySelector("[data-checked]");
    if (el) {
      const now = new Date();
      el.textContent = el.dataset.label + " " + clockTime(now, el.dataset.timeFormat || "", el.dataset.timeZone || "");
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    const tab = document.querySelector(".pub-tabs [aria-current]");
    if (tab) tab.scrollIntoView({ block: "nearest", inline: "center" });
    tick();
    window.setInterval(tick, 1000);
    checked();
    if (document.body.classList.contains("beamer")) {
      showSlide();
      const live = document.getElementById("live");
      window.setTimeout(nextSlide, (Number(live && live.dataset.beamerSeconds) || 15) * 1000);
      const full = document.querySelector("[data-fullscreen]");
      if (full && document.documentElement.requestFullscreen) {
        full.addEventListener("click", function () { document.documentElement.requestFullscreen(); });
      } else if (full) {
        full.hidden = true;
      }
    }
  });

  // Poll only while the page is visible (a phone asleep, another tab: no requests). Here rather than in an
  // hx-trigger filter, which htmx would evaluate with eval(), forbidden by the Content-Security-Policy.
  document.addEventListener("htmx:confirm", function (event) {
    if (document.visibilityState !== "visible") event.preventDefault();
  });

  // After a poll: keep the beamer on the page it was showing, and start the new clock at once.
  document.addEventListener("htmx:afterSettle", function () { showSlide(); tick(); });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) checked();
  });
})();
