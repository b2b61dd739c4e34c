package io.iam.core.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** File names are zero-padded to six digits, and parse back to their numbers. */
class StoreFilesTest {

  @Test
  void namesArePaddedLikePercentZeroSixDAndParseBack() {
    Path dir = Path.of("/store");
    for (long n : new long[] {0, 7, 42, 999_999, 1_000_000, 123_456_789_012L}) {
      assertEquals(String.format("%06d.mst", n), StoreFiles.table(dir, n).getFileName().toString());
      assertEquals(String.format("%06d.log", n), StoreFiles.log(dir, n).getFileName().toString());
      assertEquals(String.format("MANIFEST-%06d", n), StoreFiles.manifest(dir, n).getFileName().toString());
      assertEquals(n, StoreFiles.tableNumber(StoreFiles.table(dir, n)).getAsLong());
      assertEquals(n, StoreFiles.logNumber(StoreFiles.log(dir, n)).getAsLong());
      assertEquals(n, StoreFiles.manifestNumber(StoreFiles.manifest(dir, n)).getAsLong());
    }
    assertThrows(IllegalArgumentException.class, () -> StoreFiles.table(dir, -1));
  }
}
