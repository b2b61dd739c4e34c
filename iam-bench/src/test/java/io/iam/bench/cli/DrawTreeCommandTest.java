package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DrawTreeCommandTest {

  private static final String RECORDS = "5000";

  @BeforeAll
  static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  @Test
  void writesAPngOfTheGivenSize(@TempDir Path dir) throws Exception {
    Path png = dir.resolve("new-dir").resolve("tree.png");
    CliRun run = CliRun.of("draw-tree", "--records", RECORDS, "--width", "900", "--height", "360",
        "--out", png.toString());

    assertEquals(0, run.exitCode(), run.err());
    assertEquals("", run.err());
    BufferedImage image = ImageIO.read(png.toFile());
    assertNotNull(image, "not a readable PNG");
    assertEquals(900, image.getWidth());
    assertEquals(360, image.getHeight());
    assertEquals(1, run.outLines().size(), run.out());
    assertTrue(run.out().startsWith(png + ": tree iam, "), run.out());
  }

  @Test
  void theSummaryNamesEveryLevel(@TempDir Path dir) {
    CliRun run = CliRun.of("draw-tree", "--tree", "lsa", "--records", RECORDS, "--fanout", "3",
        "--out", dir.resolve("lsa.png").toString());

    assertEquals(0, run.exitCode(), run.err());
    Matcher levels = Pattern.compile(", (\\d+) levels, nodes (.*)$").matcher(run.lastOutLine());
    assertTrue(levels.find(), run.out());
    int depth = Integer.parseInt(levels.group(1));
    assertTrue(depth >= 2, run.out());
    for (int level = 1; level <= depth; level++) {
      assertTrue(Pattern.compile("\\bL" + level + " [1-9]\\d*\\b").matcher(levels.group(2)).find(),
          "L" + level + " in " + run.out());
    }
    assertFalse(levels.group(2).contains("L" + (depth + 1)), run.out());
  }

  @Test
  void iamPaintsItsMixedAndMergingLevelsLsaOnlyAppends(@TempDir Path dir) throws Exception {
    Path iam = dir.resolve("iam.png");
    Path lsa = dir.resolve("lsa.png");
    CliRun iamRun = CliRun.of("draw-tree", "--records", RECORDS, "--fanout", "3", "--mixed-level", "2",
        "--k", "2", "--out", iam.toString());
    CliRun lsaRun = CliRun.of("draw-tree", "--tree", "lsa", "--records", RECORDS, "--fanout", "3",
        "--out", lsa.toString());

    assertEquals(0, iamRun.exitCode(), iamRun.err());
    assertEquals(0, lsaRun.exitCode(), lsaRun.err());
    assertTrue(iamRun.out().contains(" 3 levels") || iamRun.out().contains(" 4 levels"), iamRun.out());
    BufferedImage iamImage = ImageIO.read(iam.toFile());
    BufferedImage lsaImage = ImageIO.read(lsa.toFile());
    for (TreePicture.Role role : TreePicture.Role.values()) {
      assertTrue(has(iamImage, role.dark), "iam draws " + role);
    }
    assertTrue(has(lsaImage, TreePicture.Role.APPENDING.dark), "lsa appends");
    assertFalse(has(lsaImage, TreePicture.Role.MIXED.dark), "lsa has no mixed level");
    assertFalse(has(lsaImage, TreePicture.Role.MERGING.dark), "lsa has no merging level");
  }

  @Test
  void badOptionsExitTwoNamingTheOption(@TempDir Path dir) {
    String out = dir.resolve("bad.png").toString();
    assertBad("--tree", out, "--tree", "leveled");
    assertBad("--tree", out, "--tree", "btree");
    assertBad("--fanout", out, "--fanout", "1");
    assertBad("--memtable", out, "--memtable", "4KiB");
    assertBad("--k", out, "--tree", "lsa", "--k", "2");
    assertBad("--mixed-level", out, "--mixed-level", "-1");
    assertBad("--records", out, "--records", "0");
    assertBad("--value-size", out, "--value-size", "0");
    assertBad("--width", out, "--width", "100");
    assertBad("--height", out, "--height", "100000");
    CliRun noOut = CliRun.of("draw-tree", "--records", RECORDS);
    assertEquals(2, noOut.exitCode(), noOut.err());
    assertTrue(noOut.err().contains("--out"), noOut.err());
    assertFalse(Files.exists(dir.resolve("bad.png")), "no picture after a usage error");
  }

  private static void assertBad(String option, String out, String... args) {
    String[] all = new String[args.length + 5];
    all[0] = "draw-tree";
    System.arraycopy(args, 0, all, 1, args.length);
    all[args.length + 1] = "--records";
    all[args.length + 2] = RECORDS;
    all[args.length + 3] = "--out";
    all[args.length + 4] = out;
    CliRun run = CliRun.of(all);
    assertEquals(2, run.exitCode(), String.join(" ", args) + ": " + run.out() + run.err());
    assertEquals(1, run.err().lines().count(), run.err());
    assertTrue(run.err().contains(option), run.err());
    assertEquals("", run.out());
  }

  private static boolean has(BufferedImage image, Color color) {
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        if ((image.getRGB(x, y) & 0xFFFFFF) == (color.getRGB() & 0xFFFFFF)) {
          return true;
        }
      }
    }
    return false;
  }
}
