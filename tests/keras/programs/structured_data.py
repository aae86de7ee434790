"""Structured data as the Keras tutorials do it: a dict dataset from columns, per-feature
preprocessing layers adapted on `ds.map(lambda x, y: x[name])` (Normalization, StringLookup and
IntegerLookup with one_hot output), applied inside tf.data.map and inside a functional model
over dict inputs, and keras.utils.FeatureSpace (crossed features, hashing, num_bins)."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(47)
rng = np.random.RandomState(47)
n = 60
columns = {
    'age': rng.randint(20, 70, size=n).astype('float32'),
    'income': (rng.rand(n) * 100).astype('float32'),
    'city': rng.choice(['paris', 'rome', 'oslo', 'lima'], size=n),
    'rooms': rng.randint(1, 6, size=n).astype('int64'),
}
target = ((columns['age'] > 40) ^ (columns['city'] == 'rome')).astype('int32')
ds = tf.data.Dataset.from_tensor_slices((columns, target))
train = ds.take(48).shuffle(48, seed=2).batch(12)
val = ds.skip(48).batch(12)


def encode_numerical(name):
    layer = keras.layers.Normalization(axis=None)
    layer.adapt(train.map(lambda x, y: x[name]))
    return layer


def encode_categorical(name, lookup_class):
    layer = lookup_class(output_mode='one_hot')
    layer.adapt(train.map(lambda x, y: x[name]))
    return layer


age = encode_numerical('age')
income = encode_numerical('income')
city = encode_categorical('city', keras.layers.StringLookup)
rooms = encode_categorical('rooms', keras.layers.IntegerLookup)
print('age stats', round(float(age.mean.numpy().ravel()[0]), 4),
      round(float(age.variance.numpy().ravel()[0]), 3))
print('city vocab', city.get_vocabulary(), 'rooms vocab', rooms.get_vocabulary())

inputs = {'age': keras.Input((1,), name='age'), 'income': keras.Input((1,), name='income'),
          'city': keras.Input((1,), name='city', dtype='string'),
          'rooms': keras.Input((1,), name='rooms', dtype='int64')}
encoded = keras.layers.concatenate([age(inputs['age']), income(inputs['income']),
                                    city(inputs['city']), rooms(inputs['rooms'])])
h = keras.layers.Dense(16, activation='relu')(encoded)
h = keras.layers.Dropout(0.3)(h)
output = keras.layers.Dense(1, activation='sigmoid')(h)
model = keras.Model(inputs, output)
model.compile(optimizer=keras.optimizers.Adam(0.02), loss='binary_crossentropy',
              metrics=['accuracy'])


def expand(x, y):
    return {k: tf.expand_dims(v, -1) for k, v in x.items()}, y


history = model.fit(train.map(expand), validation_data=val.map(expand), epochs=4, verbose=0)
for key in sorted(history.history):
    print(key, np.round(history.history[key], 5).tolist())
sample = {'age': tf.constant([[35.0]]), 'income': tf.constant([[50.0]]),
          'city': tf.constant([['rome']]), 'rooms': tf.constant([[3]], dtype=tf.int64)}
print('predict', np.round(model.predict(sample, verbose=0), 5).tolist())

preprocessed = train.map(lambda x, y: (tf.concat([city(x['city']), rooms(x['rooms'])], -1), y))
for features, labels in preprocessed.take(1):
    print('mapped', features.shape, features.dtype, features.numpy()[:2].tolist())

space = keras.utils.FeatureSpace(
    features={'age': keras.utils.FeatureSpace.float_discretized(num_bins=4),
              'income': keras.utils.FeatureSpace.float_normalized(),
              'city': keras.utils.FeatureSpace.string_categorical(num_oov_indices=1),
              'rooms': keras.utils.FeatureSpace.integer_categorical(num_oov_indices=1)},
    crosses=[keras.utils.FeatureSpace.cross(feature_names=('city', 'rooms'), crossing_dim=8)],
    output_mode='concat')
space.adapt(train.map(lambda x, y: x))
for x, y in train.take(1):
    out = space(x)
    print('feature space', out.shape, np.round(out.numpy()[:2], 4).tolist())
encoded_ds = train.map(lambda x, y: (space(x), y))
head = keras.Sequential([keras.Input((out.shape[-1],)), keras.layers.Dense(1, activation='sigmoid')])
head.compile(optimizer='adam', loss='binary_crossentropy')
h = head.fit(encoded_ds, epochs=2, verbose=0)
print('feature space model', np.round(h.history['loss'], 5).tolist())
