"""The notebooks as Jupyter reads them: every notebooks/*.ipynb validates against the nbformat 4 schema.

NotebookFilesTest (JUnit, no Jupyter needed) checks how they are stored; this adds nbformat's own schema.
"""
import glob
import os
import unittest

import nbformat

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))


class NotebookFiles(unittest.TestCase):
    def test_every_notebook_validates_against_the_nbformat_schema(self):
        paths = sorted(glob.glob(os.path.join(ROOT, "notebooks", "*.ipynb")))
        self.assertTrue(paths, "no notebooks under " + os.path.join(ROOT, "notebooks"))
        for path in paths:
            with self.subTest(notebook=os.path.basename(path)):
                nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
                self.assertEqual(4, nb.nbformat)
                nbformat.validate(nb)


if __name__ == "__main__":
    unittest.main()
