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
