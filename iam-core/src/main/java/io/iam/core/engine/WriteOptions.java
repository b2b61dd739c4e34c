package io.iam.core.engine;

/**
 * Per-write choices.
 *
 * @param sync whether the write returns only after its log record is on stable storage (writers
 *     that sync at the same time share one fsync)
 */
public record WriteOptions(boolean sync) {
  public static final WriteOptions DEFAULT = new WriteOptions(false);
  public static final WriteOptions SYNC = new WriteOptions(true);
}
