package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.iam.core.engine.TreeKind;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.NodeMeta;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TreePictureTest {

  private static final int WIDTH = 800;
  private static final int HEIGHT = 400;
  private static final int PLOT = WIDTH - TreePicture.LEFT - TreePicture.RIGHT;
  private static final double ROW = (HEIGHT - TreePicture.TOP - TreePicture.BOTTOM - TreePicture.ROW_GAP) / 2.0;

  @BeforeAll
  static void headless() {
    System.setProperty("java.awt.headless", "true");
  }

  @Test
  void nodesSpanTheirBoundaryRanksAndStackOneBandPerSequence() {
    // Boundaries a < m < n < z: four ranks, so L2's nodes take a half of the key space each.
    TreePicture.Level l1 = new TreePicture.Level(1, TreePicture.Role.APPENDING, 0, List.of(node(1, "a", "z", 2)));
    TreePicture.Level l2 = new TreePicture.Level(2, TreePicture.Role.MIXED, 3,
        List.of(node(2, "a", "m", 1), node(3, "n", "z", 0)));
    BufferedImage image = new TreePicture("test", List.of(l1, l2)).draw(WIDTH, HEIGHT);

    int l1Bottom = (int) (TreePicture.TOP + ROW);
    int l2Bottom = (int) (TreePicture.TOP + 2 * ROW + TreePicture.ROW_GAP);
    // L1's one node covers the whole key space: the oldest of its 2 sequences at the bottom, dark ...
    assertColor(TreePicture.Role.APPENDING.dark, image, x(0.05), l1Bottom - 5);
    assertColor(TreePicture.Role.APPENDING.dark, image, x(0.95), l1Bottom - 5);
    // ... the newer one above it, light, each half the row (the most sequences of any node is 2).
    assertColor(TreePicture.Role.APPENDING.light, image, x(0.5), (int) (l1Bottom - 0.75 * ROW));
    // L2's first node covers ranks a..m, its one sequence half the row high; nothing above it.
    assertColor(TreePicture.Role.MIXED.dark, image, x(0.25), l2Bottom - 5);
    assertColor(Color.WHITE, image, x(0.25), (int) (l2Bottom - 0.75 * ROW));
    // ... and ends at the middle: n..z is the second node, emptied, an outline with nothing inside.
    assertColor(Color.WHITE, image, x(0.6), l2Bottom - 5);
    assertColor(Color.WHITE, image, x(0.75), l2Bottom - 5);
  }

  @Test
  void rolesFollowTheTreeAndItsMixedLevel() {
    assertEquals(List.of(TreePicture.Role.APPENDING, TreePicture.Role.MIXED, TreePicture.Role.MERGING),
        List.of(TreePicture.Role.of(TreeKind.IAM, 1, 2), TreePicture.Role.of(TreeKind.IAM, 2, 2),
            TreePicture.Role.of(TreeKind.IAM, 3, 2)));
    assertEquals(TreePicture.Role.APPENDING, TreePicture.Role.of(TreeKind.LSA, 3, 2));
    assertEquals(TreePicture.Role.MERGING, TreePicture.Role.of(TreeKind.LSM_MERGE, 1, 2));
    assertEquals("(mixed, k=3)", new TreePicture.Level(2, TreePicture.Role.MIXED, 3, List.of()).roleLabel());
    assertEquals("(merging)", new TreePicture.Level(3, TreePicture.Role.MERGING, 0, List.of()).roleLabel());
  }

  private static int x(double fraction) {
    return (int) (TreePicture.LEFT + fraction * PLOT);
  }

  private static void assertColor(Color expected, BufferedImage image, int x, int y) {
    assertEquals(Integer.toHexString(expected.getRGB() & 0xFFFFFF), Integer.toHexString(image.getRGB(x, y) & 0xFFFFFF),
        "pixel " + x + "," + y);
  }

  /** A node over [lo, hi] with that many sequences; 0 is an emptied node. */
  private static NodeMeta node(long id, String lo, String hi, int sequences) {
    byte[] l = lo.getBytes(StandardCharsets.US_ASCII);
    byte[] h = hi.getBytes(StandardCharsets.US_ASCII);
    FileMeta file = sequences == 0 ? null : new FileMeta(id, 1000L * sequences, sequences, 10, l, h, 1, 1);
    return NodeMeta.of(id, l, h, file);
  }
}
