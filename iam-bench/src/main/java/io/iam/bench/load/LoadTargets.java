package io.iam.bench.load;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The stores {@code iam load} can run, by name. {@code --tree NAME} and {@code --vs NAME} both
 * look names up here.
 *
 * <p>Adding a store is one line in the static block below: {@code register("name",
 * SomeTarget::open);} with a {@link LoadTarget.Factory}. One factory may be registered under
 * several names; it sees the name in {@link LoadConfig#tree()}. Stores with heavy dependencies
 * (HBase, AsterixDB) live in modules of their own and come in through {@link LoadTargetProvider}.
 */
public final class LoadTargets {

  private static final Map<String, LoadTarget.Factory> TARGETS = new LinkedHashMap<>();
  private static final Set<String> BUILT_IN = new java.util.HashSet<>();

  static {
    register(RocksDbTarget.NAME, RocksDbTarget::open);
    register(RocksDbTarget.UNIVERSAL, RocksDbTarget::open);
    // IAM's engine: one factory for every tree, the name is the store option 'tree'.
    register(IamStoreTarget.LEVELED, IamStoreTarget::open);
    register("iam", IamStoreTarget::open);
    register("lsa", IamStoreTarget::open);
    register("lsm-merge", IamStoreTarget::open);
    register("lsbm", IamStoreTarget::open); // the leveled tree with LSbM's compaction buffer (docs/lsbm.md)
    register("minmax", IamStoreTarget::open); // Min-Max's write cache and buckets (docs/minmax.md)
    register("stack", IamStoreTarget::open); // a stack of runs shaped by a stack policy (docs/stack.md)
    BUILT_IN.addAll(TARGETS.keySet());
    for (LoadTargetProvider provider : ServiceLoader.load(LoadTargetProvider.class)) {
      provider.targets().forEach(LoadTargets::register);
    }
  }

  /**
   * Stores whose binding is a module of its own, with the server's jars (the {@code iam} script puts
   * it on the class path when a command names the store), and that module's name.
   */
  private static final Map<String, String> SEPARATE_BINDINGS =
      Map.of("hbase", "iam-bench-hbase", "asterixdb", "iam-bench-asterix");

  private LoadTargets() {}

  private static void register(String name, LoadTarget.Factory factory) {
    if (TARGETS.putIfAbsent(name, factory) != null) {
      throw new IllegalStateException("load target '" + name + "' registered twice");
    }
  }

  /** The registered names, in registration order. */
  public static Set<String> names() {
    return Collections.unmodifiableSet(TARGETS.keySet());
  }

  /** Whether {@code name} is one of iam-bench's own stores (the embedded trees and RocksDB). */
  public static boolean isBuiltIn(String name) {
    return BUILT_IN.contains(name);
  }

  /**
   * Whether {@code name} is a store whose binding is a module of its own ({@code hbase}, {@code
   * asterixdb}), which the {@code iam} script puts on the class path of a command that names it.
   */
  public static boolean isSeparateBinding(String name) {
    return bindingOf(name) != null;
  }

  /** The module of {@code name}'s binding: {@code hbase} and its presets {@code hbase-*}, {@code asterixdb}. */
  private static String bindingOf(String name) {
    int dash = name.indexOf('-');
    return SEPARATE_BINDINGS.get(dash < 0 ? name : name.substring(0, dash));
  }

  /** The factory registered under {@code name}, if any. */
  public static Optional<LoadTarget.Factory> find(String name) {
    return Optional.ofNullable(TARGETS.get(name));
  }

  /**
   * Opens the store registered under {@code config.tree()} in {@code dir}.
   *
   * @throws IllegalArgumentException if no store has that name; the message lists the names
   */
  public static LoadTarget open(Path dir, LoadConfig config) throws IOException {
    return find(config.tree())
        .orElseThrow(() -> new IllegalArgumentException(unknown(config.tree())))
        .open(dir, config);
  }

  /** "unknown tree 'x'; available trees: a, b". */
  public static String unknown(String name) {
    return unknown(name, "tree");
  }

  /** "unknown engine 'x'; available engines: a, b", for {@code what} = "engine". */
  public static String unknown(String name, String what) {
    String module = bindingOf(name);
    if (module != null) {
      return what + " '" + name + "' is in the module " + module + ", which is not on the class path;"
          + " run it through the ./iam script, which adds that module when a command names '" + name + "'";
    }
    return "unknown " + what + " '" + name + "'; available " + what + "s: " + String.join(", ", names());
  }
}
