package io.iam.bench.cli;

import io.iam.bench.cli.options.MemtableOption;
import io.iam.bench.cli.options.OptionDefaults;
import io.iam.bench.cli.options.RecordsOption;
import io.iam.bench.cli.options.ValueSizeOption;
import io.iam.bench.load.KeyOrder;
import io.iam.bench.load.LoadWorkload;
import io.iam.bench.util.Dirs;
import io.iam.bench.util.SizeConverter;
import io.iam.bench.util.Sizes;
import io.iam.core.engine.IamStore;
import io.iam.core.engine.StoreOptions;
import io.iam.core.engine.TreeKind;
import io.iam.core.key.InternalKey;
import io.iam.core.memtable.MemTable;
import io.iam.core.option.InvalidOptionsException;
import io.iam.core.option.OptionValues;
import io.iam.core.manifest.NodeMeta;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code iam draw-tree}: loads a small node-tree store and draws its levels, nodes and sequences as a PNG. */
@Command(
    name = "draw-tree",
    defaultValueProvider = DrawTreeCommand.Defaults.class,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Loads a small store with a node tree (IAM-tree, LSA-tree or merging LSM-tree of nodes) from one"
          + " thread, waits for its background work, and draws the tree as a PNG: one row per level (L1 at"
          + " the top), each node a box over its key range, each of its sequences a band (oldest at the"
          + " bottom), an emptied node an empty outline.",
      "The store is settled after each memtable (no background work while records arrive), so the same"
          + " options always draw the same tree. The memtable capacity (--memtable, store option"
          + " memtable-size) is also C_t, the size of a full node.",
      "The x axis is the key space by rank: every distinct node boundary of every level is one step, so"
          + " ranges line up across levels.",
      ""
    })
public final class DrawTreeCommand implements Callable<Integer> {

  /** The trees built from nodes, as {@code --tree} names them. */
  static final List<String> TREES = List.of("iam", "lsa", "lsm-merge");

  /** Bounds of the picture: below them the labels and margins leave no room for the tree. */
  static final int MIN_WIDTH = 640;
  static final int MIN_HEIGHT = 240;
  static final int MAX_SIDE = 10_000;

  /** Records of one seed's key block: seed s draws record numbers s·2^32 onwards. */
  private static final long SEED_STRIDE = 1L << 32;

  @Spec CommandSpec spec;

  @Option(names = "--tree", paramLabel = "NAME", defaultValue = "iam",
      description = "Tree to draw: iam, lsa or lsm-merge. Default: ${DEFAULT-VALUE}.")
  String tree;

  @Mixin RecordsOption records = new RecordsOption();

  @Mixin ValueSizeOption valueSize = new ValueSizeOption();

  @Mixin MemtableOption memtable = new MemtableOption();

  @Option(names = "--fanout", paramLabel = "T", defaultValue = "6",
      description = "Fan-out t (store option fanout). The defaults give a tree of 3 levels; with t = 4 the"
          + " leaf level fills its 64 nodes and a fourth level starts. Default: ${DEFAULT-VALUE}.")
  int fanout;

  @Option(names = "--cache", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "Block cache capacity (store option block-cache-size); with --tree iam and no --mixed-level"
          + " it decides m and k. Default: the store's.")
  Long cache;

  @Option(names = "--mixed-level", paramLabel = "M",
      description = "--tree iam: a fixed mixed level m (store option mixed-level). Default: chosen from the"
          + " block cache.")
  Integer mixedLevel;

  @Option(names = "--k", paramLabel = "K",
      description = "--tree iam: a fixed k, the sequences a node of the mixed level holds before it is merged"
          + " (store option mixed-level-sequences). Default: chosen from the block cache.")
  Integer k;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "0",
      description = "Which records: keys of record numbers N·2^32 onwards, hashed as 'iam load' hashes them"
          + " (0: the keys of 'iam load'); also seeds the values. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--out", paramLabel = "FILE.png", required = true,
      description = "The PNG to write; missing directories are created.")
  Path out;

  @Option(names = "--width", paramLabel = "PX", defaultValue = "1600",
      description = "Width of the picture in pixels. Default: ${DEFAULT-VALUE}.")
  int width;

  @Option(names = "--height", paramLabel = "PX", defaultValue = "600",
      description = "Height of the picture in pixels. Default: ${DEFAULT-VALUE}.")
  int height;

  @Override
  public Integer call() throws IOException {
    String name = tree.toLowerCase(Locale.ROOT);
    if (!TREES.contains(name)) {
      throw usage("--tree '" + tree + "' " + (name.equals("leveled") ? "has no nodes to draw" : "is not a node tree")
          + ": allowed " + String.join(", ", TREES));
    }
    if (!name.equals("iam") && (mixedLevel != null || k != null)) {
      throw usage((mixedLevel != null ? "--mixed-level" : "--k") + " applies only to --tree iam");
    }
    if (records.count() < 1) {
      throw usage("--records " + records.count() + " is out of range: allowed 1 or more");
    }
    if (valueSize.bytes() < 1 || valueSize.bytes() > (1 << 20)) {
      throw usage("--value-size " + valueSize.bytes() + " is out of range: allowed 1 B to 1 MiB");
    }
    side("--width", width, MIN_WIDTH);
    side("--height", height, MIN_HEIGHT);
    OptionValues options = storeOptions(name);

    Path dir = Files.createTempDirectory("iam-draw-tree-");
    TreePicture picture;
    try (IamStore store = IamStore.open(dir, options)) {
      load(store);
      picture = picture(store);
    } finally {
      Dirs.deleteTree(dir);
    }
    BufferedImage image = picture.draw(width, height);
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (!ImageIO.write(image, "png", out.toFile())) {
      throw new IOException("no PNG writer for " + out);
    }
    PrintWriter pw = spec.commandLine().getOut();
    pw.println(summary(picture));
    pw.flush();
    return 0;
  }

  /**
   * Puts the records and settles the store after each memtable: the flush happens just before the
   * put that would switch the memtable anyway (as the store counts a memtable's bytes), so every
   * flush holds what it would hold, but no flush or compaction runs while records arrive, and the
   * same options always draw the same tree.
   */
  private void load(IamStore store) throws IOException {
    LoadWorkload workload = new LoadWorkload(records.count(), (int) valueSize.bytes(), KeyOrder.HASH, seed);
    long first = seed * SEED_STRIDE;
    long memtableBytes = 0;
    for (long i = 0; i < records.count(); i++) {
      byte[] key = workload.key(first + i);
      byte[] value = workload.nextValue();
      if (memtableBytes >= memtable.bytes()) {
        store.flushAndSettle();
        memtableBytes = 0;
      }
      store.put(key, value);
      memtableBytes += key.length + InternalKey.TRAILER_BYTES + value.length + MemTable.ENTRY_OVERHEAD_BYTES;
    }
    store.flushAndSettle();
  }

  /** The store options: the tree, its budgets, and m and k where given. */
  private OptionValues storeOptions(String name) {
    Map<String, String> m = new LinkedHashMap<>();
    Map<String, String> flags = new LinkedHashMap<>();
    put(m, flags, StoreOptions.TREE.key(), "--tree", name);
    put(m, flags, StoreOptions.FANOUT.key(), "--fanout", Integer.toString(fanout));
    put(m, flags, StoreOptions.MEMTABLE_SIZE.key(), "--memtable", Long.toString(memtable.bytes()));
    put(m, flags, StoreOptions.BLOCK_CACHE_SIZE.key(), "--cache", cache);
    put(m, flags, StoreOptions.MIXED_LEVEL.key(), "--mixed-level", mixedLevel);
    put(m, flags, StoreOptions.MIXED_LEVEL_SEQUENCES.key(), "--k", k);
    try {
      return StoreOptions.parse(m);
    } catch (InvalidOptionsException e) {
      // Each problem reads "key=value is ...": name the command-line option instead of the store key.
      throw usage(e.problems().stream().map(p -> {
        int eq = Math.max(0, p.indexOf('='));
        String key = p.substring(0, eq);
        return flags.containsKey(key) ? flags.get(key) + " " + p.substring(eq + 1) : p;
      }).collect(Collectors.joining("; ")));
    }
  }

  private static void put(Map<String, String> options, Map<String, String> flags, String key, String flag,
      Object value) {
    if (value != null) {
      options.put(key, value.toString());
      flags.put(key, flag);
    }
  }

  private void side(String option, int pixels, int min) {
    if (pixels < min || pixels > MAX_SIDE) {
      throw usage(option + " " + pixels + " is out of range: allowed " + min + " to " + MAX_SIDE);
    }
  }

  /** The settled store's levels, each with its role in the tree's flush behaviour. */
  private TreePicture picture(IamStore store) {
    List<List<NodeMeta>> nodes = store.nodes();
    Map<String, Number> props = store.properties();
    int m = props.getOrDefault("tree.mixed-level", store.depth() + 1).intValue();
    int kk = props.getOrDefault("tree.max-sequences", 1).intValue();
    List<TreePicture.Level> levels = new ArrayList<>();
    for (int level = 1; level <= store.depth(); level++) {
      TreePicture.Role role = TreePicture.Role.of(store.tree(), level, m);
      levels.add(new TreePicture.Level(level, role, role == TreePicture.Role.MIXED ? kk : 0, nodes.get(level)));
    }
    return new TreePicture(title(store.tree(), store.depth(), m, kk), levels);
  }

  private String title(TreeKind kind, int depth, int m, int kk) {
    String name = switch (kind) {
      case IAM -> "IAM-tree";
      case LSA -> "LSA-tree";
      default -> "LSM-tree of nodes (merging)";
    };
    String mk = kind != TreeKind.IAM ? ""
        : m > depth ? String.format(Locale.ROOT, "  ·  m = %d, below the tree: appends everywhere", m)
        : String.format(Locale.ROOT, "  ·  m = %d, k = %d", m, kk);
    return String.format(Locale.ROOT, "%s  ·  %,d records of %s  ·  memtable = C_t = %s  ·  fan-out t = %d%s",
        name, records.count(), Sizes.human(valueSize.bytes()),
        StoreOptions.MEMTABLE_SIZE.type().format(memtable.bytes()), fanout, mk);
  }

  /** One line: where the picture is, its levels and the nodes of each. */
  private String summary(TreePicture picture) {
    String perLevel = picture.levels().stream()
        .map(l -> "L" + l.number() + " " + l.nodes().size())
        .collect(Collectors.joining(", "));
    return out + ": tree " + tree.toLowerCase(Locale.ROOT) + ", " + picture.levels().size() + " levels, nodes "
        + perLevel;
  }

  /** The defaults of the options from {@link io.iam.bench.cli.options}. */
  static final class Defaults extends OptionDefaults {
    Defaults() {
      super(Map.of("--records", "20000", "--value-size", "200", "--memtable", "64KiB"));
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
