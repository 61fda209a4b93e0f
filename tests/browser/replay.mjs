// Drives a replay page (written by `sweep2d run --html`) in Debian's chromium, headless, as a user
// would: the canvas draws, the space key pauses, the scrub bar moves by keyboard, a click on a
// body picks it and shows its speed. Screenshots go to the artefact directory.
// Usage: node replay.mjs REPLAY.html ARTEFACT_DIR
import { fail, launch, paintedAtLeast } from "./common.mjs";
import path from "node:path";

const [page_path, artefacts] = process.argv.slice(2);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 600 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("file://" + path.resolve(page_path));
  await page.waitForFunction(() => window.sweep2dReplay !== undefined, null, { timeout: 10000 });
  const frames = await page.evaluate(() => window.sweep2dReplay.frames);
  if (frames < 2) fail(`only ${frames} frames`);
  // Playing: the frame advances by itself.
  await page.waitForFunction(() => window.sweep2dReplay.index > 3, null, { timeout: 10000 });
  // The canvas is drawn: count painted pixels.
  const painted = await paintedAtLeast(page, 500);
  if (painted < 500) fail(`only ${painted} pixels painted`);
  await page.screenshot({ path: path.join(artefacts, "replay-playing.png") });
  // Space pauses; the frame then stays put.
  await page.keyboard.press(" ");
  const paused = await page.evaluate(() => window.sweep2dReplay.playing);
  if (paused) fail("space did not pause");
  // The scrub bar, by keyboard: End goes to the last frame, Home to the first.
  await page.focus("#scrub");
  await page.keyboard.press("End");
  let index = await page.evaluate(() => window.sweep2dReplay.index);
  if (index !== frames - 1) fail(`End on the scrub bar showed frame ${index} of ${frames}`);
  // The clock shows the last frame's time once the next animation frame has drawn it.
  const last = await page.evaluate(() => document.getElementById("clock").textContent);
  await page.waitForTimeout(100);
  const clock = await page.textContent("#clock");
  await page.screenshot({ path: path.join(artefacts, "replay-end.png") });
  await page.keyboard.press("Home");
  index = await page.evaluate(() => window.sweep2dReplay.index);
  if (index !== 0) fail(`Home showed frame ${index}`);
  try {
    await page.waitForFunction((c) => document.getElementById("clock").textContent !== c, clock, { timeout: 5000 });
  } catch {
    fail(`the clock stayed at ${clock} (was ${last}) after Home on the scrub bar`);
  }
  // Click the first moving body where it is drawn: it is picked and its speed shown.
  const target = await page.evaluate(() => {
    const r = window.sweep2dReplay;
    const i = r.bodies.findIndex((b) => b.kind === "dynamic");
    const p = r.pose(i);
    return { i, xy: r.toScreen(p[0], p[1]), name: r.bodies[i].name };
  });
  if (target.i < 0) fail("no moving body");
  const box = await page.locator("#view").boundingBox();
  await page.mouse.click(box.x + target.xy[0], box.y + target.xy[1]);
  const picked = await page.evaluate(() => window.sweep2dReplay.picked);
  if (picked !== target.i) fail(`clicked ${target.name} (${target.i}), picked ${picked}`);
  // The readout shows it from the next animation frame on.
  try {
    await page.waitForFunction(
      (name) => { const t = document.getElementById("info").textContent; return t.includes(name) && t.includes("m/s"); },
      target.name, { timeout: 5000 });
  } catch {
    fail(`readout: ${await page.textContent("#info")}`);
  }
  await page.screenshot({ path: path.join(artefacts, "replay-picked.png") });
  if (errors.length) fail("page errors: " + errors.join("; "));
  console.log(`replay ok: ${frames} frames, ${painted} pixels painted, picked ${target.name}`);
} finally {
  await browser.close();
}
