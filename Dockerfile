# fabriclab: JupyterLab with the Java (fabriclab) kernel. Binder / repo2docker compatible:
# user ${NB_USER} with UID 1000 and a writable HOME, `jupyter` on PATH, port 8888.
#   docker build -t fabriclab .
#   docker run --rm -p 8888:8888 fabriclab
FROM debian:bookworm

ARG NB_USER=jovyan
ARG NB_UID=1000
ENV USER=${NB_USER} \
    NB_UID=${NB_UID} \
    HOME=/home/${NB_USER} \
    LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive

# JDK 17, Maven, Debian's Jupyter stack (the same packages the tests use), fonts for the charts.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      openjdk-17-jdk-headless maven \
      python3 python3-venv python3-pip \
      jupyter-notebook jupyter-nbconvert python3-nbclient jupyter-client python3-ipykernel \
      fonts-dejavu-core fontconfig ca-certificates \
 && rm -rf /var/lib/apt/lists/*

# JupyterLab is not packaged by Debian: install it from PyPI into a venv that also sees Debian's packages.
RUN python3 -m venv --system-site-packages /opt/jupyter \
 && /opt/jupyter/bin/pip install --no-cache-dir jupyterlab
ENV PATH=/opt/jupyter/bin:${PATH}

RUN useradd --create-home --uid ${NB_UID} --shell /bin/bash ${NB_USER}
COPY --chown=${NB_UID}:${NB_UID} . ${HOME}/fabriclab
USER ${NB_USER}
WORKDIR ${HOME}/fabriclab

# Build, then install the kernelspec where every Jupyter in the image finds it (the user's data dir),
# with its class-data sharing archive (bin/install-kernel; JupyterIT runs notebook 00 this way).
# (-pl kernel -am: the optional Spark module and its 210 MB of jars stay out of the image.)
RUN mvn -q package -DskipTests -pl kernel -am \
 && bin/install-kernel ${HOME}/.local/share/jupyter/kernels \
 && rm -rf ${HOME}/.m2/repository
ENV FABRICLAB_HOME=${HOME}/fabriclab

EXPOSE 8888
CMD ["jupyter", "lab", "--ip=0.0.0.0", "--port=8888", "--no-browser", "--notebook-dir=notebooks"]
