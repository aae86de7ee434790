"""keras.utils dataset builders: text_dataset_from_directory (labels from folder names,
validation_split with a seed), image_dataset_from_directory on PNG files (resizing, grayscale,
categorical labels), timeseries_dataset_from_array (sequence_length, sampling_rate, stride,
targets), split_dataset, and a .keras round trip of a model holding a TextVectorization layer."""
import os
import tempfile

import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(31)
root = tempfile.mkdtemp()
texts = {'neg': ['bad movie', 'awful plot and acting', 'boring', 'not good at all', 'terrible'],
         'pos': ['great film', 'loved it', 'wonderful acting', 'a fine story', 'superb']}
for label, items in texts.items():
    os.makedirs(os.path.join(root, 'text', label))
    for i, text in enumerate(items):
        with open(os.path.join(root, 'text', label, f'{i}.txt'), 'w') as handle:
            handle.write(text)
train = keras.utils.text_dataset_from_directory(
    os.path.join(root, 'text'), batch_size=4, validation_split=0.3, subset='training', seed=7)
val = keras.utils.text_dataset_from_directory(
    os.path.join(root, 'text'), batch_size=4, validation_split=0.3, subset='validation', seed=7)
print('class_names', train.class_names, train.element_spec)
for batch_text, batch_label in train:
    print('train batch', sorted(t.decode() for t in batch_text.numpy()), batch_label.numpy().tolist())
for batch_text, batch_label in val:
    print('val batch', sorted(t.decode() for t in batch_text.numpy()), batch_label.numpy().tolist())
ordered = keras.utils.text_dataset_from_directory(os.path.join(root, 'text'), batch_size=None,
                                                  shuffle=False, label_mode='categorical')
print('ordered', [(t.numpy().decode(), l.numpy().tolist()) for t, l in ordered.take(3)])

rng = np.random.RandomState(31)
for label in ('cats', 'dogs'):
    os.makedirs(os.path.join(root, 'images', label))
    for i in range(3):
        pixels = (rng.rand(6, 5, 3) * 255).astype('uint8')
        png = tf.io.encode_png(tf.constant(pixels))
        tf.io.write_file(os.path.join(root, 'images', label, f'{i}.png'), png)
images = keras.utils.image_dataset_from_directory(
    os.path.join(root, 'images'), image_size=(4, 4), batch_size=6, shuffle=False,
    label_mode='categorical')
for batch, labels in images:
    print('images', batch.shape, batch.dtype, np.round(batch.numpy()[0, :, :, 0], 3).tolist())
    print('image labels', labels.numpy().tolist())
gray = keras.utils.image_dataset_from_directory(
    os.path.join(root, 'images'), image_size=(3, 3), color_mode='grayscale', batch_size=2,
    shuffle=True, seed=3, interpolation='nearest')
for batch, labels in gray.take(2):
    print('gray', batch.shape, np.round(batch.numpy()[:, :, :, 0].sum(axis=(1, 2)), 2).tolist(),
          labels.numpy().tolist())

series = np.arange(20, dtype='float32')
windows = keras.utils.timeseries_dataset_from_array(
    series[:-3], targets=series[3:], sequence_length=3, sampling_rate=2, sequence_stride=2,
    batch_size=3)
for xb, yb in windows:
    print('window', xb.numpy().tolist(), yb.numpy().tolist())
shuffled = keras.utils.timeseries_dataset_from_array(series, None, sequence_length=4,
                                                     shuffle=True, seed=5, batch_size=4)
print('shuffled', [b.numpy()[:, 0].tolist() for b in shuffled])
left, right = keras.utils.split_dataset(np.arange(10), left_size=0.6, shuffle=False)
print('split', [int(v) for v in left], [int(v) for v in right])

vectorize = keras.layers.TextVectorization(max_tokens=12, output_sequence_length=4)
vectorize.adapt(train.map(lambda t, l: t))
model = keras.Sequential([keras.Input((1,), dtype='string'), vectorize,
                          keras.layers.Embedding(12, 3), keras.layers.GlobalAveragePooling1D(),
                          keras.layers.Dense(1, activation='sigmoid')])
model.compile(optimizer=keras.optimizers.Adam(0.05), loss='binary_crossentropy')
h = model.fit(train.map(lambda t, l: (tf.expand_dims(t, -1), l)), epochs=2, verbose=0)
print('text model', np.round(h.history['loss'], 5).tolist())
path = os.path.join(root, 'text_model.keras')
model.save(path)
loaded = keras.models.load_model(path)
probe = tf.constant([['great acting'], ['boring plot']])
print('vocab kept', loaded.layers[0].get_vocabulary() == vectorize.get_vocabulary())
print('same', np.allclose(loaded.predict(probe, verbose=0), model.predict(probe, verbose=0)))
