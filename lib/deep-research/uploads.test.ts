// A start's dataset files: names checked before anything is stored, per-conversation limits, and
// storage under names of their own (no overwrite; a failed write leaves nothing behind).
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { AppError } from "../errors";
import { checkDatasetLimits, checkUploadNames, filesNotTaken, removeUploads, storeUploads } from "./uploads";

const file = (name: string, content = "a,b\n1,2\n") => new File([content], name);
const refused = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof AppError && e.code === "bad_request:upload" && e.field === "files" && pattern.test(e.message));

test("names: directories dropped, control characters removed; unusable names and sanitised duplicates refused", () => {
  assert.deepEqual(checkUploadNames([file("C:\\data\\rain.csv"), file("../../etc/x\u0007.csv")], { maxFiles: 5 }).map((u) => u.filename), ["rain.csv", "x.csv"]);
  for (const name of [".", "..", "...", "dir/..", "  ", "\u0001"]) refused(() => checkUploadNames([file(name)], { maxFiles: 5 }), /not a usable file name/);
  refused(() => checkUploadNames([file("x".repeat(201))], { maxFiles: 5 }), /longer than 200/);
  refused(() => checkUploadNames([file("rain.csv"), file("rain.csv")], { maxFiles: 5 }), /"rain\.csv" is attached twice/);
  refused(() => checkUploadNames([file("Rain.csv"), file("rain.CSV")], { maxFiles: 5 }), /"Rain\.csv" and "rain\.CSV"/);
  refused(() => checkUploadNames([file("a:b.csv"), file("a_b.csv")], { maxFiles: 5 }), /same name once sanitised/);
  refused(() => checkUploadNames(Array.from({ length: 6 }, (_, i) => file(`f${i}.csv`)), { maxFiles: 5 }), /6 files attached; .*at most 5/);
});

test("a conversation's datasets stay within DATASET_MAX_FILES and DATASET_MAX_TOTAL_BYTES, earlier starts' included", () => {
  const earlier = [{ filename: "a.csv", storedName: "1-a.csv", size: 600, preview: "", uploadedAt: "" }];
  const uploads = checkUploadNames([file("b.csv", "x".repeat(400))], { maxFiles: 5 });
  checkDatasetLimits({ existing: earlier, uploads, maxFiles: 2, maxTotalBytes: 1000 });
  refused(() => checkDatasetLimits({ existing: earlier, uploads, maxFiles: 1, maxTotalBytes: 1000 }), /holds 1 already/);
  refused(() => checkDatasetLimits({ existing: earlier, uploads, maxFiles: 2, maxTotalBytes: 999 }), /DATASET_MAX_TOTAL_BYTES/);
});

test("files of one name are stored apart; a failed write removes what the start wrote", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-uploads-unit-"));
  try {
    const first = await storeUploads(dir, "c1", checkUploadNames([file("rain.csv", "2020")], { maxFiles: 5 }));
    const second = await storeUploads(dir, "c1", checkUploadNames([file("rain.csv", "2021")], { maxFiles: 5 }));
    assert.notEqual(first[0].storedName, second[0].storedName);
    assert.deepEqual([first[0].filename, second[0].filename], ["rain.csv", "rain.csv"]);
    assert.deepEqual(fs.readdirSync(path.join(dir, "c1")).map((f) => fs.readFileSync(path.join(dir, "c1", f), "utf8")).sort(), ["2020", "2021"]);

    // The second file cannot be read: the first, already written, is removed and the error thrown.
    const broken = Object.assign(file("b.csv"), { stream: () => new ReadableStream({ pull: (c) => c.error(new Error("disk gone")) }) });
    await assert.rejects(storeUploads(dir, "c2", [{ file: file("a.csv"), filename: "a.csv" }, { file: broken, filename: "b.csv" }]), /disk gone/);
    assert.equal(fs.existsSync(path.join(dir, "c2")), false, "nothing left of the start");
    await removeUploads(dir, "c1", [...first, ...second]);
    assert.equal(fs.existsSync(path.join(dir, "c1")), false, "an emptied directory is removed");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a large file is streamed to disk whole, its preview from its first bytes", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quarry-uploads-big-"));
  try {
    const row = "north,anvil,12,3.5\n";
    const big = new File(["region,product,units,price\n", row.repeat(600_000)], "big.csv");
    const [stored] = await storeUploads(dir, "c3", checkUploadNames([big], { maxFiles: 5 }));
    assert.equal(stored.size, big.size);
    assert.ok(big.size > 10 * 1024 * 1024, "more than the old 8 MiB");
    assert.equal(fs.statSync(path.join(dir, "c3", stored.storedName)).size, big.size);
    assert.ok(stored.preview.startsWith("region,product,units,price\nnorth,anvil"));
    assert.ok(stored.preview.length <= 500);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a start that cannot take its files says so: a 409 naming them, not a silent drop", () => {
  const one = filesNotTaken(1);
  assert.equal(one.code, "conflict:conversation");
  assert.equal(one.field, "files");
  assert.match(one.message, /still running, so the attached file was not taken. Attach it again/);
  assert.match(filesNotTaken(3).message, /the 3 attached files were not taken. Attach them again/);
});
