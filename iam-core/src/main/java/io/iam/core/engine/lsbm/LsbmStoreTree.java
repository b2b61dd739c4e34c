package io.iam.core.engine.lsbm;

import io.iam.core.iter.InternalIterator;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionEdit;
import io.iam.core.tree.CompactionPick;
import io.iam.core.tree.CompactionPicker;
import io.iam.core.tree.GearPicker;
import io.iam.core.tree.LeveledPicker;
import io.iam.core.engine.leveled.LeveledStoreTree;
import io.iam.core.engine.seam.StoreParts;
import io.iam.core.engine.seam.TableCache;
import io.iam.core.engine.seam.TreeHost;
import java.io.IOException;
import java.util.List;

/**
 * tree=lsbm: the leveled tree with LSbM's compaction buffer (Teng, Guo, Lee, Chen, Zhang, Ma, Zhang,
 * ACM TOS 2018). Each compaction's edit carries its buffered merge (the inputs of C_i kept as
 * B_i+1, {@link LsbmBuffer#plan}); reads for the latest data consult the buffer, reads at a snapshot
 * do not; a background trim drops buffer files whose blocks the cache no longer holds. With {@code
 * lsbm-levels=gear} the levels alternate C_i and C_i′ ({@link GearPicker}).
 */
public final class LsbmStoreTree extends LeveledStoreTree {

  private final LsbmBuffer lsbm;
  private final boolean gear;
  private final io.iam.core.key.KeyComparator user;

  private LsbmStoreTree(StoreParts parts, TreeHost host, LeveledPicker picker, CompactionPicker compactionPicker,
      LsbmSettings settings) {
    super(parts, host, picker, compactionPicker);
    this.gear = compactionPicker instanceof GearPicker;
    this.user = parts.cmp().userComparator();
    this.lsbm = new LsbmBuffer(parts.versions(), parts.tables(), parts.cache(), parts.stats(), compactionPicker,
        parts.levels(), settings, parts.name(), host::purgeSoon);
  }

  /** tree=lsbm on the leveled tree {@code config} configures, with the buffer {@code settings} configure. */
  public static LsbmStoreTree create(StoreParts parts, TreeHost host, LeveledPicker.Config config,
      LsbmSettings settings) {
    LeveledPicker picker = new LeveledPicker(parts.cmp(), config);
    return new LsbmStoreTree(parts, host, picker, settings.gear() ? new GearPicker(picker) : picker, settings);
  }

  @Override
  public void opened() {
    lsbm.start(); // not before: a trim's purge must not race recovery's new files
  }

  @Override
  protected void install(VersionEdit edit, CompactionPick pick, long bytesWritten) throws IOException {
    edit.bufferChange(lsbm.plan(pick, edit, bytesWritten));
    lsbm.installed(versions.logAndApply(edit));
  }

  @Override
  protected TableCache.Found find(Version v, FileMeta f, byte[] key, byte[] seek, long sequence, boolean latest)
      throws IOException {
    return latest ? lsbm.get(v, f, key, seek, sequence) : tables.get(f, seek, key);
  }

  @Override
  protected InternalIterator levelIterator(Version v, List<FileMeta> files, boolean latest) {
    return latest ? lsbm.levelIterator(v, files) : tables.levelIterator(files);
  }

  /** The compaction buffer lists B_i of the current version. */
  public io.iam.core.tree.lsbm.CompactionBuffer buffer() {
    Version v = versions.current();
    return v.buffer() instanceof io.iam.core.tree.lsbm.CompactionBuffer b ? b
        : io.iam.core.tree.lsbm.CompactionBuffer.empty(user, v.numLevels());
  }

  @Override
  public boolean gearLevels() {
    return gear;
  }

  @Override
  public int maintainNow() throws IOException {
    int removed = lsbm.trim();
    host.purgeSoon();
    return removed;
  }

  @Override
  public void close() {
    lsbm.close();
  }
}
