"""A Keras model on scikit-learn's 8x8 digits, trained with `model.fit` (Keras's progress bar,
validation, early stopping) with defun as Keras's TensorFlow. Needs Keras and scikit-learn
(pip install '.[keras,examples]').

    python examples/keras_digits.py [--short] [--plot [PATH]]
"""
import numpy as np

import defun as tf
from example_utils import parse_args, require, save_plot

args = parse_args(__doc__.splitlines()[0])
require('keras', 'keras', 'Keras itself')
load_digits = require('sklearn.datasets', 'scikit-learn', 'the digits data set').load_digits
digits = load_digits()
images = (digits.images / 16.0).astype(np.float32)[..., None]      # [N, 8, 8, 1]
labels = digits.target.astype(np.int64)
order = np.random.default_rng(0).permutation(len(images))
train, test = order[:1500], order[1500:]
if args.short:
    train = train[:256]

keras = tf.keras          # the Keras package, running on defun
keras.utils.set_random_seed(0)
model = keras.Sequential([
    keras.Input((8, 8, 1)),
    keras.layers.Conv2D(16, 3, padding='same', activation='relu'),
    keras.layers.MaxPooling2D(2),
    keras.layers.Flatten(),
    keras.layers.Dropout(0.2),
    keras.layers.Dense(10),
])
model.compile(optimizer=keras.optimizers.Adam(0.01),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])
history = model.fit(images[train], labels[train], batch_size=64, epochs=2 if args.short else 15,
                    validation_split=0.1, verbose=2 if args.short else 1,
                    callbacks=[keras.callbacks.EarlyStopping(patience=3,
                                                             restore_best_weights=True)])
loss, accuracy = model.evaluate(images[test], labels[test], verbose=0)
print(f'test accuracy {accuracy:.3f} after {len(history.history["loss"])} epochs')
save_plot(args, 'keras_digits_loss.png', {'training loss': history.history['loss'],
                                          'validation loss': history.history['val_loss']},
          xlabel='epoch')
