/**
 * The manifest: what a store's levels hold ({@link io.iam.core.manifest.FileMeta}, a node tree's
 * {@link io.iam.core.manifest.NodeMeta}), immutable {@link io.iam.core.manifest.Version}s of it that
 * readers pin, the {@link io.iam.core.manifest.VersionEdit}s that change it, and the log they are
 * recorded in ({@link io.iam.core.manifest.VersionSet}). It records what the trees decide and knows
 * none of them: a tree that keeps files beside its levels (LSbM's compaction buffer) plugs in
 * through {@link io.iam.core.manifest.LevelBuffers}. An ArchUnit rule keeps it so.
 */
package io.iam.core.manifest;
