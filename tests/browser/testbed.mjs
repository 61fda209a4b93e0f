// Drives the live testbed (`sweep2d serve`) in Debian's chromium, headless, as a user would:
// frames arrive and the canvas is drawn; a scene file is loaded through the page's file input; a
// bullet is fired at a 1 cm wall by a real mouse drag and, with the continuous pass on, bounces
// (the server's state endpoint shows an impact and every body still on its side); with the pass
// switched off by its checkbox, the next bullet passes through. Screenshots go to the artefacts.
// Usage: node testbed.mjs URL SCENE.json ARTEFACT_DIR
import { fail, launch, paintedAtLeast } from "./common.mjs";
import path from "node:path";

const [url, scene, artefacts] = process.argv.slice(2);
const state = async () => (await fetch(url + "api/state")).json();
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 650 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.sweep2dTestbed && window.sweep2dTestbed.frames > 3, null, { timeout: 15000 });
  const painted = await paintedAtLeast(page, 1000);
  if (painted < 1000) fail(`only ${painted} pixels painted`);
  await page.screenshot({ path: path.join(artefacts, "testbed-demo.png") });

  // Load the wall scene through the page's file input.
  await page.setInputFiles("#file", scene);
  await page.waitForFunction((name) => {
    const s = window.sweep2dTestbed.state;
    return s && s.scene === name;
  }, path.basename(scene), { timeout: 10000 });
  await page.waitForTimeout(300);
  const wallX = 0.0;

  // Fire by dragging from (-1.5, y) toward the wall (the view fits the wall: 4 m tall).
  const fire = async (y) => {
    const box = await page.locator("#view").boundingBox();
    const [x0, y0] = await page.evaluate((y) => window.sweep2dTestbed.toScreen(-1.5, y), y);
    const [x1, y1] = await page.evaluate((y) => window.sweep2dTestbed.toScreen(-1, y), y);
    await page.mouse.move(box.x + x0, box.y + y0);
    await page.mouse.down();
    await page.mouse.move(box.x + (x0 + x1) / 2, box.y + (y0 + y1) / 2, { steps: 4 });
    await page.mouse.move(box.x + x1, box.y + y1, { steps: 4 });
    await page.mouse.up();
  };
  const before = await state();
  await fire(0.5);
  await page.waitForTimeout(1000);
  let s = await state();
  if (s.bullets_fired !== before.bullets_fired + 1) fail(`a drag fired ${s.bullets_fired - before.bullets_fired} bullets`);
  if (s.impacts_total <= before.impacts_total) fail("the bullet made no impact with the wall");
  const through = (s) => s.dynamic.filter((b) => b.x > wallX);
  if (through(s).length) fail("a bullet passed the wall with the continuous pass on: " + JSON.stringify(through(s)));
  await page.screenshot({ path: path.join(artefacts, "testbed-bounce.png") });

  // Switch the continuous pass off with its checkbox: the next bullet tunnels.
  await page.click("#continuous");
  await page.waitForTimeout(200);
  s = await state();
  if (s.continuous) fail("the checkbox did not switch the continuous pass off");
  const impacts = s.impacts_total;
  await fire(-0.5);
  await page.waitForTimeout(1000);
  s = await state();
  if (through(s).length !== 1) fail(`expected the second bullet through the wall without the continuous pass: ${JSON.stringify(s.dynamic)}`);
  if (s.impacts_total !== impacts) fail("impacts were resolved with the continuous pass off");
  await page.screenshot({ path: path.join(artefacts, "testbed-tunnel.png") });

  // Pull a body with the mouse: the demo's slowest dynamic body follows the pointer 1.5 m up.
  await page.selectOption("#scene", "demo");
  await page.waitForFunction(() => window.sweep2dTestbed.state && window.sweep2dTestbed.state.scene === "demo", null, { timeout: 10000 });
  await page.waitForTimeout(1500); // let the demo's bodies come to rest
  s = await state();
  const body = s.dynamic.reduce((a, b) => (Math.hypot(a.vx, a.vy) <= Math.hypot(b.vx, b.vy) ? a : b));
  const box = await page.locator("#view").boundingBox();
  const [bx, by] = await page.evaluate(([x, y]) => window.sweep2dTestbed.toScreen(x, y), [body.x, body.y]);
  const [tx, ty] = await page.evaluate(([x, y]) => window.sweep2dTestbed.toScreen(x, y), [body.x, body.y + 1.5]);
  await page.mouse.move(box.x + bx, box.y + by);
  await page.mouse.down();
  await page.waitForTimeout(200);
  await page.mouse.move(box.x + tx, box.y + ty, { steps: 10 });
  await page.waitForTimeout(1500);
  s = await state();
  const held = s.dynamic.find((b) => b.id === body.id);
  await page.screenshot({ path: path.join(artefacts, "testbed-drag.png") });
  await page.mouse.up();
  if (Math.abs(held.y - (body.y + 1.5)) > 0.3) fail(`${body.name} pulled from y ${body.y} to ${held.y}, not near ${body.y + 1.5}`);

  // Drive the character with the keyboard: its script walks right, the left arrow walks it left,
  // the up arrow jumps.
  await page.selectOption("#scene", "character");
  await page.waitForFunction(() => window.sweep2dTestbed.state && window.sweep2dTestbed.state.scene === "character" && window.sweep2dTestbed.state.character, null, { timeout: 10000 });
  await page.waitForTimeout(300);
  const start = (await state()).character;
  await page.keyboard.down("ArrowLeft");
  await page.waitForTimeout(1000);
  await page.keyboard.up("ArrowLeft");
  await page.waitForTimeout(200);
  const walked = (await state()).character;
  if (!(walked.x < start.x - 2)) fail(`the left arrow did not walk the character left: x ${start.x} -> ${walked.x}`);
  if (!walked.grounded) fail("the character is not on the ground after walking");
  await page.keyboard.press("ArrowUp");
  await page.waitForTimeout(250);
  const jumped = (await state()).character;
  await page.screenshot({ path: path.join(artefacts, "testbed-character.png") });
  if (!(jumped.y > walked.y + 0.5)) fail(`the up arrow did not jump: y ${walked.y} -> ${jumped.y}`);
  if (errors.length) fail("page errors: " + errors.join("; "));
  console.log(`testbed ok: ${painted} pixels painted; bounce with the pass on, tunnel with it off; ${body.name} pulled up 1.5 m; the character walked ${(start.x - walked.x).toFixed(2)} m left and jumped ${(jumped.y - walked.y).toFixed(2)} m`);
} finally {
  await browser.close();
}
