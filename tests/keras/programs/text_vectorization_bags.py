"""TextVectorization's bag-of-words outputs: multi_hot, count and tf_idf (ragged tokens counted
per row)."""
import numpy as np
import tensorflow as tf

keras = tf.keras
texts = ['The cat sat on the mat.', 'A dog ate my homework!', 'The dog chased the cat',
         'Cats and dogs, living together?', 'my HOMEWORK was eaten', 'the mat is red']
multi = keras.layers.TextVectorization(max_tokens=10, output_mode='multi_hot')
multi.adapt(texts)
print('multi_hot', multi(texts[:2]).numpy().tolist())
counts = keras.layers.TextVectorization(max_tokens=10, output_mode='count')
counts.adapt(texts)
print('count', counts(['the the cat']).numpy().tolist())

tfidf = keras.layers.TextVectorization(max_tokens=12, output_mode='tf_idf')
tfidf.adapt(texts)
print('tf_idf', np.round(tfidf(texts[:2]).numpy(), 5).tolist())

keras.utils.set_random_seed(3)
model = keras.Sequential([keras.Input(shape=(1,), dtype='string'), multi,
                          keras.layers.Dense(1, activation='sigmoid')])
model.compile(optimizer=keras.optimizers.Adam(0.05), loss='binary_crossentropy')
labels = np.array([0, 1, 0, 1, 1, 0], dtype='float32')
train = tf.data.Dataset.from_tensor_slices((tf.constant(texts)[:, None], labels)).batch(3)
print('loss', np.round(model.fit(train, epochs=3, verbose=0).history['loss'], 5).tolist())

