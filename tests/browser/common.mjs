// What the browser scripts share: launching Debian's chromium, failing with a message, and
// counting the pixels a canvas has painted.
import { chromium } from "playwright-core";

export const fail = (m) => { console.error("FAIL: " + m); process.exit(1); };

export const launch = () => chromium.launch({
  executablePath: process.env.SWEEP2D_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});

// Pixels of the canvas `#view` that are not transparent.
export const painted = (page) => page.evaluate(() => {
  const c = document.getElementById("view");
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
  return n;
});

// Pixels of `#view` that are not transparent, once at least `least` are or `ms` milliseconds have
// passed: a page draws on its next animation frame, which a loaded machine may delay well past the
// moment its data arrived.
export const paintedAtLeast = async (page, least, ms = 15000) => {
  const end = Date.now() + ms;
  let n = await painted(page);
  while (n < least && Date.now() < end) {
    await page.waitForTimeout(100);
    n = await painted(page);
  }
  return n;
};
