package io.iam.core.engine;

/** The shape of the tree a store keeps its files in. */
public enum TreeKind {
  /** LevelDB/RocksDB-style leveled LSM: an L0 file-count trigger and a size ratio between levels. */
  LEVELED
}
