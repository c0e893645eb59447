#!/usr/bin/env python3
"""Builds a Dockerfile's filesystem into a root directory without a Docker engine.

Runs the Dockerfile's own instructions in order over ROOT, a Debian tree already made from the FROM image's
release (bin/test-binder makes it with debootstrap): ARG and ENV set the build's variables (with ${VAR}
substitution), RUN runs its shell form with `chroot` as the current USER (numeric uid/gid from the tree's
/etc/passwd) in the current WORKDIR with exactly the ENV variables, COPY copies from the build context
(honouring .dockerignore's directory and file names, and --chown), USER and WORKDIR change the state, EXPOSE
is noted, CMD is recorded. What the image would start with (ENV, USER, WORKDIR, CMD) is written to
ROOT/.image-config.json for the launch test.

Usage: dockerfile_chroot.py ROOT CONTEXT [--build-arg NAME=VALUE]... [--env NAME=VALUE]...
                            [--replace CONTEXT_PATH=HOST_PATH]...
  --build-arg  as `docker build --build-arg`;
  --env        extra variables for RUN steps only (not recorded in the image), e.g. pip's offline sources;
  --replace    COPY takes HOST_PATH where the Dockerfile names CONTEXT_PATH.
Needs root (chroot); /proc and /dev must already be mounted in ROOT.
"""
import fnmatch
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time


def logical_lines(text):
    """The Dockerfile's instructions: comments dropped, backslash continuations joined."""
    out, current = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not current and (not line or line.startswith("#")):
            continue
        if current and line.startswith("#"):
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        if current.strip():
            out.append(current.strip())
        current = ""
    if current.strip():
        out.append(current.strip())
    return out


def substitute(text, variables):
    def repl(match):
        name = match.group(1) or match.group(2)
        return variables.get(name, "")
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)", repl, text)


def key_values(text, variables):
    """ENV/ARG pairs: NAME=VALUE ... (values may be quoted), or the legacy `NAME VALUE` form."""
    tokens = shlex.split(text)
    if len(tokens) >= 2 and "=" not in tokens[0]:
        return [(tokens[0], substitute(" ".join(tokens[1:]), variables))]
    pairs = []
    for token in tokens:
        name, _, value = token.partition("=")
        pairs.append((name, substitute(value, variables)))
    return pairs


def ignored(rel, patterns):
    parts = rel.split("/")
    for pattern in patterns:
        p = pattern.rstrip("/")
        if p.startswith("**/"):
            if any(fnmatch.fnmatch(part, p[3:]) for part in parts):
                return True
        elif fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(parts[0], p):
            return True
    return False


def passwd_ids(root, user):
    """uid and gid of USER (a name or a number) in ROOT's /etc/passwd."""
    if user.isdigit():
        return int(user), int(user)
    with open(os.path.join(root, "etc/passwd")) as f:
        for line in f:
            fields = line.split(":")
            if fields[0] == user:
                return int(fields[2]), int(fields[3])
    raise SystemExit(f"dockerfile_chroot: USER {user} is not in {root}/etc/passwd")


def chown_tree(path, uid, gid):
    os.lchown(path, uid, gid)
    if os.path.isdir(path) and not os.path.islink(path):
        for base, dirs, files in os.walk(path):
            for name in dirs + files:
                os.lchown(os.path.join(base, name), uid, gid)


def copy(root, context, sources, dest, chown, patterns, replacements, variables):
    dest_in_root = os.path.join(root, dest.lstrip("/"))
    many = len(sources) > 1 or dest.endswith("/")
    if many:
        os.makedirs(dest_in_root, exist_ok=True)
    for src in sources:
        host = replacements.get(src, os.path.join(context, src))
        if os.path.isdir(host):
            os.makedirs(dest_in_root, exist_ok=True)
            for base, dirs, files in os.walk(host):
                rel_base = os.path.relpath(base, host)
                rel_ctx = os.path.normpath(os.path.join(src, rel_base)) if src != "." else rel_base
                dirs[:] = [d for d in dirs
                           if not ignored(os.path.normpath(os.path.join(rel_ctx, d)), patterns)]
                target_base = os.path.normpath(os.path.join(dest_in_root, rel_base))
                os.makedirs(target_base, exist_ok=True)
                for name in files:
                    rel = os.path.normpath(os.path.join(rel_ctx, name))
                    if ignored(rel, patterns):
                        continue
                    shutil.copy2(os.path.join(base, name), os.path.join(target_base, name),
                                 follow_symlinks=False)
            target = dest_in_root
        else:
            target = os.path.join(dest_in_root, os.path.basename(src)) if many else dest_in_root
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(host, target)
        if chown:
            user, _, group = substitute(chown, variables).partition(":")
            uid, gid = passwd_ids(root, user)
            if group:
                gid = int(group) if group.isdigit() else gid
            chown_tree(target, uid, gid)


def main(argv):
    args = argv[1:]
    if len(args) < 2:
        raise SystemExit(__doc__)
    root, context = os.path.abspath(args[0]), os.path.abspath(args[1])
    build_args, run_env, replacements = {}, {}, {}
    rest = args[2:]
    while rest:
        flag, value = rest[0], rest[1]
        name, _, val = value.partition("=")
        if flag == "--build-arg":
            build_args[name] = val
        elif flag == "--env":
            run_env[name] = val
        elif flag == "--replace":
            replacements[name] = os.path.abspath(val)
        else:
            raise SystemExit(f"dockerfile_chroot: unknown option {flag}")
        rest = rest[2:]

    patterns = []
    ignore_file = os.path.join(context, ".dockerignore")
    if os.path.exists(ignore_file):
        patterns = [l.strip() for l in open(ignore_file) if l.strip() and not l.startswith("#")]

    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
    args_seen = {}
    user, workdir, cmd, exposed = "root", "/", None, []
    for step, line in enumerate(logical_lines(open(os.path.join(context, "Dockerfile")).read()), 1):
        keyword, _, body = line.partition(" ")
        keyword = keyword.upper()
        variables = {**args_seen, **env}
        started = time.monotonic()
        print(f"== step {step}: {keyword} {body[:110]}", flush=True)
        if keyword == "FROM":
            pass  # ROOT is the base, made by the caller from the same release
        elif keyword == "ARG":
            for name, value in key_values(body, variables):
                args_seen[name] = build_args.get(name, value)
        elif keyword == "ENV":
            for name, value in key_values(body, variables):
                env[name] = value
        elif keyword == "RUN":
            uid, gid = passwd_ids(root, substitute(user, variables))
            step_env = {**args_seen, **env, **run_env}
            command = ["chroot", f"--userspec={uid}:{gid}", f"--groups={gid}", root,
                       "/bin/sh", "-c", f"cd {shlex.quote(workdir)} && {body}"]
            if uid == 0:
                command = ["chroot", root, "/bin/sh", "-c", f"cd {shlex.quote(workdir)} && {body}"]
            result = subprocess.run(command, env=step_env)
            if result.returncode != 0:
                raise SystemExit(f"dockerfile_chroot: step {step} (RUN) failed with exit code "
                                 f"{result.returncode}")
        elif keyword == "COPY":
            tokens = shlex.split(body)
            chown = None
            while tokens and tokens[0].startswith("--"):
                flag = tokens.pop(0)
                if flag.startswith("--chown="):
                    chown = flag[len("--chown="):]
            tokens = [substitute(t, variables) for t in tokens]
            copy(root, context, tokens[:-1], tokens[-1], chown, patterns, replacements, variables)
        elif keyword == "USER":
            user = substitute(body.strip(), variables)
        elif keyword == "WORKDIR":
            workdir = os.path.join(workdir, substitute(body.strip(), variables))
            uid, gid = passwd_ids(root, substitute(user, variables))
            path = os.path.join(root, workdir.lstrip("/"))
            if not os.path.isdir(path):
                os.makedirs(path)
                os.chown(path, uid, gid)
        elif keyword == "EXPOSE":
            exposed += body.split()
        elif keyword == "CMD":
            cmd = json.loads(body) if body.strip().startswith("[") else ["/bin/sh", "-c", body]
        else:
            raise SystemExit(f"dockerfile_chroot: step {step}: {keyword} is not handled")
        print(f"   ({time.monotonic() - started:.1f} s)", flush=True)

    uid, gid = passwd_ids(root, user)
    with open(os.path.join(root, ".image-config.json"), "w") as f:
        json.dump({"env": env, "user": user, "uid": uid, "gid": gid, "workdir": workdir,
                   "cmd": cmd, "exposed": exposed}, f, indent=1)
    print(f"image filesystem in {root}: user {user} (uid {uid}), workdir {workdir}, cmd {cmd}")


if __name__ == "__main__":
    main(sys.argv)
