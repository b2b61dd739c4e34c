package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadTargetsTest {

  @Test
  void rocksdbIsRegistered() {
    assertTrue(LoadTargets.names().contains("rocksdb"), LoadTargets.names().toString());
    assertTrue(LoadTargets.find("rocksdb").isPresent());
    assertTrue(LoadTargets.find("no-such-tree").isEmpty());
  }

  @Test
  void theEnginesLeveledTreeIsRegistered() {
    assertTrue(LoadTargets.names().contains("leveled"), LoadTargets.names().toString());
    assertTrue(LoadTargets.find(IamStoreTarget.LEVELED).isPresent());
  }

  @Test
  void openingAnUnknownNameListsTheAvailableOnes(@TempDir Path dir) {
    LoadConfig config = LoadConfig.defaults("no-such-tree", 1 << 20, 1 << 20);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadTargets.open(dir, config));

    assertEquals("unknown tree 'no-such-tree'; available trees: " + String.join(", ", LoadTargets.names()),
        e.getMessage());
  }

  @Test
  void defaultsFollowTheMemtable() {
    LoadConfig c = LoadConfig.defaults("rocksdb", 4 << 20, 32 << 20);

    assertEquals(4 << 20, c.targetFileBytes());
    assertEquals(20 << 20, c.levelBaseBytes());
    assertEquals(14, c.bloomBitsPerKey());
    assertEquals(1, c.backgroundThreads());
    assertEquals(false, c.sync());
    assertEquals("leveled", c.withTree("leveled").tree());
    assertEquals(c.levelBaseBytes(), c.withTree("leveled").levelBaseBytes());
  }
}
