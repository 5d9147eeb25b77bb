// The catalogue page on any screen: at 1280×800 and 390×844, static and
// served, no sideways scroll (collapsed, and with every entry open), the
// controls big enough to tap and not covered, the tool list as a drawer
// and the live feed behind a button on a phone, the search's no-match
// state, the theme remembered, and axe-core clean in both themes.
// Screenshots of each page at each viewport go to screenshots/.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { PAGES, VIEWPORTS, axeViolations, call, expand, following, open, shoot } from "./page-harness.mjs";

/** How far the page scrolls sideways: 0 when it fits. */
const overflow = (page) => page.evaluate(() => document.scrollingElement.scrollWidth - innerWidth);

/**
 * Each visible control of `scope` (a selector) that is too small to tap or
 * that something else covers at its centre once scrolled into the middle
 * of the view, described. `minimum` is the height a control needs.
 */
function untappable(page, scope, minimum) {
  return page.evaluate(
    ([scope, minimum]) => {
      const bad = [];
      const controls = [...document.querySelectorAll(scope)].flatMap((root) => [
        ...root.querySelectorAll("button, select, textarea, summary, a[href], input:not([type=checkbox]), label.check"),
      ]);
      for (const control of controls) {
        if (!control.checkVisibility()) continue;
        control.scrollIntoView({ block: "center" });
        const box = control.getBoundingClientRect();
        const name = `${control.tagName.toLowerCase()}#${control.id || ""}.${control.className} "${control.textContent.trim().slice(0, 30)}"`;
        if (box.height < minimum || box.width < minimum) bad.push(`${name}: ${box.width.toFixed(0)}×${box.height.toFixed(0)}`);
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        if (!hit || !(hit === control || control.contains(hit) || (control.labels && [...control.labels].includes(hit)))) {
          bad.push(`${name}: covered by ${hit ? hit.tagName.toLowerCase() + "#" + hit.id + "." + hit.className : "nothing"}`);
        }
      }
      return bad;
    },
    [scope, minimum],
  );
}

/** Opens every entry on the page at once. */
const expandAll = (page) =>
  page.evaluate(() => {
    for (const toggle of document.querySelectorAll(".toggle[aria-expanded=false]")) toggle.click();
  });

for (const [pageName, url] of Object.entries(PAGES)) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    describe(`the ${pageName} page at ${viewport.width}×${viewport.height}`, () => {
      const phone = size === "phone";

      it("fits the width, collapsed and with every entry open", async () => {
        const { page, errors } = await open(url, { viewport });
        assert.equal(await overflow(page), 0);
        await shoot(page, `layout-${pageName}-${size}`);
        await expand(page, "tool-add");
        await page.locator("#tool-add").scrollIntoViewIfNeeded();
        await shoot(page, `layout-${pageName}-${size}-add`);
        await expandAll(page);
        assert.equal(await overflow(page), 0, "an open entry scrolls sideways");
        assert.deepEqual(errors, []);
        await page.close();
      });

      it("keeps the tool controls reachable and tappable", async () => {
        const { page } = await open(`${url}#tool-add`, { viewport });
        await expand(page, "tool-orpheus_generate");
        // 44 px on a phone; on a wide screen reachable is enough.
        const minimum = phone ? 44 : 20;
        const scopes = ["#bar", "#tool-add", "#tool-orpheus_generate", "#tool-fs"];
        await expand(page, "tool-fs");
        for (const scope of scopes) assert.deepEqual(await untappable(page, scope, minimum), [], scope);
        await page.close();
      });

      it("says so when no tool matches the search", async () => {
        const { page } = await open(url, { viewport });
        await page.fill("#search", "no such tool anywhere");
        const notice = page.locator("#no-match");
        await notice.waitFor();
        assert.equal(await notice.textContent(), "No tools match “no such tool anywhere”. Clear the search");
        assert.equal(await page.locator("#tools article:visible").count(), 0);
        assert.equal(await overflow(page), 0);
        await shoot(page, `layout-${pageName}-${size}-no-match`);
        await notice.locator("button").click();
        assert.ok((await page.locator("#tools article:visible").count()) > 1);
        assert.ok(await notice.isHidden());
        // The search stays in view at the top, however far the page scrolls.
        await page.locator("#tool-yue_generate").scrollIntoViewIfNeeded();
        const top = await page.locator("#search").evaluate((e) => e.getBoundingClientRect().top);
        assert.ok(top >= 0 && top < 120, `the search is at ${top}`);
        await page.close();
      });

      it("has no serious accessibility violations, light or dark", async () => {
        for (const colorScheme of ["light", "dark"]) {
          const { page } = await open(`${url}#tool-add`, { viewport, colorScheme });
          if (pageName === "served") {
            await page.locator("#tool-add button.call").click();
            await page.locator("#tool-add .result-box").waitFor();
          }
          const violations = await axeViolations(page);
          assert.deepEqual(violations, [], `${colorScheme}:\n${violations.join("\n")}`);
          await shoot(page, `layout-${pageName}-${size}-${colorScheme}`);
          await page.close();
        }
      });

      if (phone) {
        it("opens the tool list as a drawer that leaves the tools uncovered", async () => {
          const { page } = await open(url, { viewport });
          const toc = page.locator("#toc");
          assert.ok(await toc.isHidden(), "the list starts closed");
          await page.click("#toc-toggle");
          await toc.waitFor();
          assert.equal(await page.locator("#toc-toggle").getAttribute("aria-expanded"), "true");
          assert.deepEqual(await untappable(page, "#toc", 44), []);
          await shoot(page, `layout-${pageName}-${size}-drawer`);
          // Escape closes it; a link closes it and opens its tool.
          await page.keyboard.press("Escape");
          assert.ok(await toc.isHidden());
          assert.equal(await page.evaluate(() => document.activeElement.id), "toc-toggle");
          await page.click("#toc-toggle");
          await page.click('#toc a[href="#tool-multiply"]');
          assert.ok(await toc.isHidden());
          assert.equal(await page.locator("#tool-multiply .toggle").getAttribute("aria-expanded"), "true");
          const box = await page.locator("#tool-multiply .toggle").boundingBox();
          const bar = await page.locator("#bar").boundingBox();
          assert.ok(box.y >= bar.y + bar.height - 1 && box.y < viewport.height, `at ${box.y}, the bar ends at ${bar.y + bar.height}`);
          await page.close();
        });
      }

      if (phone && pageName === "served") {
        it("shows the live feed behind a button", async () => {
          const { page, errors } = await open(url, { viewport });
          const feed = page.locator("#live");
          assert.ok(await feed.isHidden());
          await following(page);
          await call("multiply", { a: 6, b: 7 });
          // The button counts what arrived while the feed was closed.
          await page.locator("#live-count:not([hidden])").waitFor();
          assert.match(await page.locator("#live-toggle").textContent(), /^Live calls \d+ new$/);
          await page.click("#live-toggle");
          await feed.waitFor();
          await page.locator(".card.completed", { hasText: "multiply" }).first().waitFor();
          assert.ok(await page.locator("#live-count").isHidden());
          assert.deepEqual(await untappable(page, "#live .drawer-head", 44), []);
          assert.equal(await overflow(page), 0);
          await shoot(page, `layout-${pageName}-${size}-feed`);
          await page.locator("#live .close").click();
          assert.ok(await feed.isHidden());
          assert.deepEqual(errors, []);
          await page.close();
        });
      }
    });
  }
}

describe("the theme", () => {
  it("is chosen from light, dark and system, and remembered", async () => {
    const { page } = await open(PAGES.served, { colorScheme: "light" });
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(await background(), "rgb(255, 255, 255)");
    await page.selectOption("#theme", "dark");
    assert.equal(await background(), "rgb(13, 17, 23)");
    await page.reload();
    await page.waitForSelector("article");
    assert.equal(await page.locator("#theme").inputValue(), "dark");
    assert.equal(await background(), "rgb(13, 17, 23)");
    await page.selectOption("#theme", "system");
    assert.equal(await background(), "rgb(255, 255, 255)");
    await page.reload();
    await page.waitForSelector("article");
    assert.equal(await page.locator("#theme").inputValue(), "system");
    await page.close();
  });

  it("keeps the Call button's text at 4.5:1 or more in the dark", async () => {
    const { page } = await open(`${PAGES.served}#tool-add`, { colorScheme: "dark" });
    const [fg, bg] = await page.locator("#tool-add button.call").evaluate((b) => {
      const style = getComputedStyle(b);
      return [style.color, style.backgroundColor];
    });
    const luminance = (rgb) => {
      const [r, g, b] = rgb.match(/\d+/g).slice(0, 3).map((c) => {
        const v = Number(c) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [light, dark] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
    const ratio = (light + 0.05) / (dark + 0.05);
    assert.ok(ratio >= 4.5, `${fg} on ${bg}: ${ratio.toFixed(2)}:1`);
    await page.close();
  });
});
