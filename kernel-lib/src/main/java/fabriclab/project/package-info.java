/**
 * The project checkout's layout: where its {@code datasets/} and {@code images/} directories are
 * ({@link fabriclab.project.ProjectPaths}), for the calls that read or save there by default.
 */
package fabriclab.project;
