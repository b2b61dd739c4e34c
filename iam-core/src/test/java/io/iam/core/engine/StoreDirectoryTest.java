package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.ForwardingFs;
import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.option.OptionValues;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.NodeMeta;
import io.iam.core.manifest.StoreFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The purge's view of the directory: remembered between listings, and still exact after a load. */
class StoreDirectoryTest {

  /** A file system that counts the directory listings it serves. */
  private static final class ListCountingFs extends ForwardingFs {
    final AtomicInteger lists = new AtomicInteger();

    ListCountingFs() {
      super(LocalFs.INSTANCE);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
      lists.incrementAndGet();
      return super.list(dir);
    }
  }

  @Test
  void listsOnTheFirstPurgeAndEveryFullListingEveryThenRemembers(@TempDir Path dir) throws IOException {
    Files.createFile(StoreFiles.table(dir, 5));
    Files.createFile(StoreFiles.log(dir, 6));
    Files.createFile(StoreFiles.manifest(dir, 7));
    Files.createFile(dir.resolve("notes.txt"));
    ListCountingFs fs = new ListCountingFs();
    StoreDirectory directory = new StoreDirectory(fs, dir);

    StoreDirectory.Names first = directory.forPurge();
    assertEquals(1, fs.lists.get());
    assertEquals(Set.of(5L), first.tables());
    assertEquals(Set.of(6L), first.logs());
    assertEquals(Set.of(7L), first.manifests());

    directory.tableMayExist(8);
    directory.tablesMayExist(Set.of(9L));
    directory.logMayExist(10);
    directory.forgetTable(5);
    StoreDirectory.Names remembered = null;
    for (int i = 1; i < StoreDirectory.FULL_LISTING_EVERY; i++) {
      remembered = directory.forPurge();
    }
    assertEquals(1, fs.lists.get(), "no listing between full listings");
    assertEquals(Set.of(8L, 9L), remembered.tables());
    assertEquals(Set.of(6L, 10L), remembered.logs());

    // The next full listing replaces memory: 8, 9 and 10 were never created, 11 appeared unreported.
    Files.createFile(StoreFiles.table(dir, 11));
    StoreDirectory.Names listed = directory.forPurge();
    assertEquals(2, fs.lists.get());
    assertEquals(Set.of(5L, 11L), listed.tables());
    assertEquals(Set.of(6L), listed.logs());
  }

  @ParameterizedTest
  @ValueSource(strings = {"leveled", "iam", "lsa"})
  void afterManyJobsTheDirectoryHoldsExactlyTheLiveFilesAndListingsAreRare(String tree, @TempDir Path dir)
      throws IOException {
    Map<String, String> m = new HashMap<>();
    m.put("tree", tree);
    m.put("fanout", "4");
    m.put("memtable-size", "64KiB");
    m.put("target-file-size", "64KiB");
    m.put("level-base-size", "256KiB");
    m.put("block-cache-size", "256KiB");
    OptionValues options = StoreOptions.parse(m);
    ListCountingFs fs = new ListCountingFs();
    SplittableRandom random = new SplittableRandom(7);
    try (IamStore store = IamStore.open(fs, dir, options, BytewiseComparator.INSTANCE)) {
      int listedAtOpen = fs.lists.get();
      for (int i = 0; i < 30_000; i++) {
        byte[] v = new byte[200];
        random.nextBytes(v);
        store.put(String.format("user%08d", random.nextInt(15_000)).getBytes(StandardCharsets.US_ASCII), v);
      }
      store.flushAndSettle();
      long jobs = store.statistics().counters().flushes.sum() + store.statistics().counters().compactions.sum();
      assertTrue(jobs >= 2L * StoreDirectory.FULL_LISTING_EVERY, "too few jobs to test: " + jobs);
      int listings = fs.lists.get() - listedAtOpen;
      assertTrue(listings <= 1 + jobs / StoreDirectory.FULL_LISTING_EVERY, listings + " listings for " + jobs + " jobs");

      Set<Long> live = new HashSet<>();
      for (List<FileMeta> level : store.levels()) {
        level.forEach(f -> live.add(f.fileNumber()));
      }
      for (List<NodeMeta> level : store.nodes()) {
        level.stream().filter(n -> n.file() != null).forEach(n -> live.add(n.file().fileNumber()));
      }
      List<Path> onDisk;
      try (var s = Files.list(dir)) {
        onDisk = s.toList();
      }
      Set<Long> tables = onDisk.stream().map(StoreFiles::tableNumber).filter(n -> n.isPresent())
          .map(n -> n.getAsLong()).collect(Collectors.toSet());
      assertEquals(live, tables, "table files on disk are exactly the live ones");
      assertEquals(1, onDisk.stream().filter(p -> StoreFiles.logNumber(p).isPresent()).count(), "one log: " + onDisk);
      assertEquals(1, onDisk.stream().filter(p -> StoreFiles.manifestNumber(p).isPresent()).count(), "one manifest");
    }
  }
}
