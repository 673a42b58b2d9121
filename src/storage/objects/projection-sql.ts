import { JsonPath } from './list-query';
import { SqlParams } from './sql-params';

/** The paths of a body a reader needs, as a tree: `true` where the whole value below is needed. */
type PathTree = Map<string, PathTree | true>;

function treeOf(paths: readonly JsonPath[]): PathTree {
  const root: PathTree = new Map();
  for (const path of paths) {
    let node = root;
    path.forEach((segment, i) => {
      const below = node.get(segment);
      if (below === true) return;
      if (i === path.length - 1) node.set(segment, true);
      else if (below) node = below;
      else node.set(segment, (node = new Map()));
    });
  }
  return root;
}

/**
 * The SQL of the `body` column cut down to `paths` (a Table's rows need a few fields of each object, not the whole
 * object): nested `jsonb_build_object`s of the values at those paths, the absent ones left out.
 */
export function projectedBody(paths: readonly JsonPath[], params: SqlParams): string {
  const build = (tree: PathTree, prefix: string[]): string => {
    const members = [...tree].map(([key, below]) => {
      const path = [...prefix, key];
      return `${params.add(key)}::text, ${below === true ? `body #> ${params.add(path)}::text[]` : build(below, path)}`;
    });
    return `jsonb_build_object(${members.join(', ')})`;
  };
  return `jsonb_strip_nulls(${build(treeOf(paths), [])})`;
}
