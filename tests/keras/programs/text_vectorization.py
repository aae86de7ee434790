"""TextVectorization: default standardization and split, int sequences with a fixed length,
bigrams, character splitting, adapt on a tf.data pipeline, a custom standardize function,
and the layer inside a trained model."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(11)
texts = ['The cat sat on the mat.', 'A dog ate my homework!', 'The dog chased the cat',
         'Cats and dogs, living together?', 'my HOMEWORK was eaten', 'the mat is red']
labels = np.array([0, 1, 0, 1, 1, 0], dtype='float32')

ints = keras.layers.TextVectorization(max_tokens=20, output_sequence_length=6)
ints.adapt(tf.data.Dataset.from_tensor_slices(texts).batch(2))
print('vocab', ints.get_vocabulary())
print('vocabulary_size', ints.vocabulary_size())
print(ints(texts).numpy())
print(ints(['unknown words the cat']).numpy())

bigrams = keras.layers.TextVectorization(ngrams=2, output_mode='int')
bigrams.adapt(texts[:3])
print('bigrams', bigrams.get_vocabulary()[:12])
print(bigrams(['the cat sat']).numpy())


def lower_no_digits(x):
    x = tf.strings.lower(x)
    return tf.strings.regex_replace(x, '[0-9]', '')


custom = keras.layers.TextVectorization(standardize=lower_no_digits, split='whitespace',
                                        vocabulary=['cat', 'dog', 'mat'])
print('custom', custom(['Cat2 dog mat3 bird']).numpy(), custom.get_vocabulary())
chars = keras.layers.TextVectorization(split='character', output_sequence_length=5)
chars.adapt(['abc', 'abd'])
print('chars', chars.get_vocabulary(), chars(['abcx']).numpy())

model = keras.Sequential([
    keras.Input(shape=(1,), dtype='string'),
    ints,
    keras.layers.Embedding(20, 4),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(1, activation='sigmoid'),
])
model.compile(optimizer=keras.optimizers.Adam(0.05), loss='binary_crossentropy',
              metrics=['accuracy'])
train = tf.data.Dataset.from_tensor_slices((tf.constant(texts)[:, None], labels)).batch(3)
history = model.fit(train, epochs=4, verbose=0)
print('loss', history.history['loss'])
print('accuracy', history.history['accuracy'])
print('predict', model.predict(tf.constant([['the cat'], ['my dog']]), verbose=0).ravel().tolist())
